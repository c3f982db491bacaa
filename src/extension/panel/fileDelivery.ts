/**
 * A panel's TABLE and IMAGE files: the host downloads each once per turn (the webview loads
 * nothing remote) and posts the table's text or the image's local URI when it is ready.
 */
import * as vscode from 'vscode';
import type { Block } from '../../shared/domain';
import { fileKeyOf, type HostToWebview, type Turn } from '../../shared/protocol';
import { readSvgText, readTableText, type AnswerFileCache, type FileBlock } from './fileCache';

export class FileDelivery {
  /** `turnId|fileKey` of every file asked for, so a file is fetched once per turn. */
  private readonly requested = new Set<string>();

  constructor(
    private readonly files: AnswerFileCache,
    private readonly webview: vscode.Webview,
    private readonly post: (message: HostToWebview) => void,
    private readonly closed: () => boolean,
  ) {}

  /** Starts downloads of the turn's TABLE/IMAGE files not requested yet; posts each when ready. */
  fetch(turn: Turn): void {
    const blocks: Block[] = turn.answer.groups.flatMap((g) => g.blocks);
    for (const b of blocks) {
      if (b.type !== 'TABLE' && b.type !== 'IMAGE') continue;
      const key = fileKeyOf(b);
      const reqKey = `${turn.id}|${key}`;
      if (this.requested.has(reqKey)) continue;
      this.requested.add(reqKey);
      void this.send(turn.id, b, key);
    }
  }

  /** A re-initialised webview lost the turn's files with its DOM: they are sent again. */
  forget(turnId: string): void {
    for (const key of [...this.requested]) if (key.startsWith(`${turnId}|`)) this.requested.delete(key);
  }

  private async send(turnId: string, block: FileBlock, fileKey: string): Promise<void> {
    const result = await this.files.get(block);
    // The panel may have closed during the download; the copy stays cached for next time.
    if (this.closed()) return;
    if (block.type === 'TABLE') {
      if (result.status !== 'ready') {
        this.post({ type: 'tableData', turnId, fileKey, data: result });
        return;
      }
      try {
        const { csv, truncated } = await readTableText(result.file.path);
        this.post({ type: 'tableData', turnId, fileKey, data: { status: 'ready', csv, ...(truncated ? { truncated } : {}), ...(result.file.fromCache ? { fromCache: true } : {}) } });
      } catch (err) {
        this.post({ type: 'tableData', turnId, fileKey, data: { status: 'error', message: `could not read the table: ${err instanceof Error ? err.message : String(err)}` } });
      }
      return;
    }
    if (result.status !== 'ready') {
      this.post({ type: 'imageData', turnId, fileKey, data: result });
      return;
    }
    const uri = this.webview.asWebviewUri(vscode.Uri.file(result.file.path)).toString();
    // An unreadable SVG is still shown as an image from its URI.
    const svg = await readSvgText(result.file.path).catch(() => undefined);
    if (this.closed()) return;
    this.post({ type: 'imageData', turnId, fileKey, data: { status: 'ready', uri, ...(result.file.fromCache ? { fromCache: true } : {}), ...(svg !== undefined ? { svg } : {}) } });
  }
}
