/**
 * Progress lines on stderr. On a terminal one line is rewritten in place; elsewhere (CI logs,
 * pipes) a line is printed at most every few seconds so logs stay readable.
 */
export class ProgressLine {
  private lastPrint = 0;
  private lastText = '';
  private readonly tty: boolean;

  constructor(private readonly err: NodeJS.WritableStream & { isTTY?: boolean }) {
    this.tty = err.isTTY === true;
  }

  update(text: string, force = false): void {
    if (text === this.lastText) return;
    const now = Date.now();
    if (this.tty) {
      this.err.write(`\r\u001b[K${text}`);
    } else if (force || now - this.lastPrint >= 2000) {
      this.err.write(`${text}\n`);
      this.lastPrint = now;
    }
    this.lastText = text;
  }

  done(text: string): void {
    if (this.tty) this.err.write(`\r\u001b[K${text}\n`);
    else this.err.write(`${text}\n`);
    this.lastText = '';
  }
}
