/**
 * The "Team Data Analysis" log. Every line passes through redaction of the secrets currently in
 * use (hosted key, local key), as a last line of defence behind the code that never logs them.
 */
import * as vscode from 'vscode';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export class Log implements vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;
  private readonly secrets = new Set<string>();

  constructor(name = 'Team Data Analysis') {
    this.channel = vscode.window.createOutputChannel(name, { log: true });
  }

  /** Registers a secret to scrub from every later line; the returned disposable forgets it. */
  addSecret(secret: string): vscode.Disposable {
    // Very short strings would shred ordinary text; real keys are long.
    if (secret.length >= 8) this.secrets.add(secret);
    return new vscode.Disposable(() => this.secrets.delete(secret));
  }

  scrub(text: string): string {
    let out = text;
    for (const s of this.secrets) out = out.split(s).join('***');
    return out;
  }

  write(level: LogLevel, message: string): void {
    const line = this.scrub(message);
    switch (level) {
      case 'debug':
        this.channel.debug(line);
        return;
      case 'info':
        this.channel.info(line);
        return;
      case 'warn':
        this.channel.warn(line);
        return;
      case 'error':
        this.channel.error(line);
        return;
    }
  }

  debug(message: string): void {
    this.write('debug', message);
  }

  info(message: string): void {
    this.write('info', message);
  }

  warn(message: string): void {
    this.write('warn', message);
  }

  error(message: string): void {
    this.write('error', message);
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.channel.dispose();
    this.secrets.clear();
  }
}
