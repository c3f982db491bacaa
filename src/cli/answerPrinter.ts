/**
 * Prints an answer to the terminal as it streams: step progress on stderr (so stdout stays the
 * answer), message text rendered from its Markdown one finished block at a time (terminalMarkdown.ts),
 * step titles as plain text, code fences verbatim, tables as aligned text with numbers as the
 * panel shows them (tableCells.ts), charts saved to files. The same printer renders non-stream answers, fed the answer's blocks as events.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { downloadFile, describeUrl } from '../api/fileDownload';
import type { Block, JobEvent } from '../shared/domain';
import { parseCsv } from '../shared/csv';
import { MarkdownChunker } from '../shared/mdChunks';
import { distinctPlainQuestions } from '../shared/plainQuestion';
import { shownTable } from './tableCells';
import { renderTerminalInline, renderTerminalMarkdown } from './terminalMarkdown';
import { renderTextTable } from './textTable';

export interface PrinterOptions {
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream;
  /** Folder for downloaded tables and charts. */
  saveDir: string;
  signal?: AbortSignal;
  /** Bold, italics and colour in message text (a terminal that takes colour); off: plain text. */
  color?: boolean;
}

/** Strips terminal control sequences from service text so it cannot rewrite the screen. */
export function printable(text: string): string {
  return text.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(\u0007|\u001b\\)|[\u0000-\u0008\u000b-\u001f\u007f]/g, '');
}

export class AnswerPrinter {
  /** The message being streamed: its finished blocks are printed, the rest waits for more text. */
  private message: MarkdownChunker | undefined;
  private readonly runningTasks = new Map<string, string>();
  /** Files written, for a closing summary and for tests. */
  readonly saved: string[] = [];
  /** Downloads happen in order so output is deterministic; each waits for the previous one. */
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly opts: PrinterOptions) {}

  handle(e: JobEvent): void {
    this.queue = this.queue.then(() => this.print(e));
  }

  /** Prints everything handed in so far, the message being streamed included. */
  flush(): Promise<void> {
    this.queue = this.queue.then(() => this.endMessage());
    return this.queue;
  }

  private write(text: string): void {
    this.opts.out.write(text);
  }

  private printMarkdown(markdown: string): void {
    const text = renderTerminalMarkdown(markdown, { color: this.opts.color === true });
    if (text.trim() !== '') this.write(`${text}\n\n`);
  }

  private endMessage(): void {
    if (this.message === undefined) return;
    this.printMarkdown(this.message.pending);
    this.message = undefined;
  }

  private async print(e: JobEvent): Promise<void> {
    switch (e.kind) {
      case 'TITLE_GENERATION':
        this.opts.err.write(`Session: ${printable(e.title)}\n`);
        return;
      case 'TASK': {
        // Step titles are Markdown too ("Read the question as: total `revenue`"): printed as they read.
        const name = renderTerminalInline(printable(e.task.name || e.place.groupName || 'step'));
        const key = `${e.task.stage}:${e.task.id}`;
        if (e.task.status === 'running' && !this.runningTasks.has(key)) this.opts.err.write(`… ${name}\n`);
        if (e.task.status === 'running') this.runningTasks.set(key, name);
        if (e.task.status === 'done' && e.task.stage === 'Analyze') this.opts.err.write(`✓ ${name}\n`);
        if (e.task.status === 'error') this.opts.err.write(`✗ ${name} (retrying if the service does)\n`);
        if (e.task.status !== 'running') this.runningTasks.delete(key);
        return;
      }
      case 'BLOCK':
        await this.printBlock(e.block);
        return;
      case 'ERROR':
        this.endMessage();
        this.opts.err.write(`error from the service: ${printable(e.message)}\n`);
        return;
      default:
        return;
    }
  }

  private async printBlock(b: Block): Promise<void> {
    if (b.type === 'MESSAGE') {
      this.message ??= new MarkdownChunker();
      for (const chunk of this.message.push(printable(b.content))) this.printMarkdown(chunk);
      return;
    }
    this.endMessage();
    switch (b.type) {
      case 'CODE':
        // The SQL itself, indented as code, not the fence that wraps it for Markdown.
        this.printMarkdown(printable(b.content));
        return;
      case 'TABLE':
      case 'IMAGE': {
        await this.printFile(b.type, b.content.url, b.content.name);
        return;
      }
      case 'SOURCES': {
        const names = [...new Set(b.content.map((s) => printable(s.source)).filter((s) => s !== ''))];
        if (names.length > 0) this.write(`Sources: ${names.join(', ')}\n\n`);
        return;
      }
      case 'QUESTIONS':
        // Plain questions, each once, as the panel's chips read (the markup is for the engine's grammar).
        if (b.content.length > 0) this.write(`Try next:\n${distinctPlainQuestions(b.content.map(printable)).map((q) => `  • ${q.label}`).join('\n')}\n\n`);
        return;
    }
  }

  private async printFile(type: 'TABLE' | 'IMAGE', url: string, name: string): Promise<void> {
    let file;
    try {
      const dl: { signal?: AbortSignal; fileName: string } = { fileName: name };
      if (this.opts.signal) dl.signal = this.opts.signal;
      file = await downloadFile(url, this.opts.saveDir, dl);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      this.write(`[${type === 'TABLE' ? 'table' : 'chart'} ${printable(name)} at ${describeUrl(url)} could not be downloaded: ${why}]\n\n`);
      return;
    }
    this.saved.push(file.path);
    if (type === 'IMAGE') {
      this.write(`Chart: ${printable(name)} saved to ${file.path}\n\n`);
      return;
    }
    const rows = parseCsv(await readFile(file.path, 'utf8'));
    this.write(`Table: ${printable(name)} (${Math.max(0, rows.length - 1).toLocaleString('en-US')} rows, saved to ${join(file.path)})\n`);
    // Numbers as the panel shows them; the saved CSV keeps the exact values.
    const shown = shownTable(rows);
    this.write(`${renderTextTable(shown.rows)}\n`);
    if (shown.rounded) this.write('(≈ rounded as shown; the saved file has the exact values)\n');
    this.write('\n');
  }
}
