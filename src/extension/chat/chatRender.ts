/**
 * A streamed answer into VS Code's Chat view, as it arrives: Analyze steps as progress, text as
 * markdown, code as fenced blocks (so VS Code's own code-block actions apply), a table as a
 * markdown table of its first rows with a button to the full table in the answer panel, a chart
 * as a button that opens it there, sources as references to the files, and the suggested
 * questions kept for the follow-up provider.
 */
import * as vscode from 'vscode';
import type { JobStream } from '../../api/jobStream';
import { tableExcerpt } from '../../api/toolText';
import type { Answer, Block } from '../../shared/domain';

export const SHOW_ANSWER_COMMAND = 'teamData.showAnswer';

export interface RenderedAnswer {
  answer: Answer;
  questions: string[];
}

function fenced(code: string): string {
  const t = code.trim();
  return t.startsWith('```') ? t : `\`\`\`sql\n${t}\n\`\`\``;
}

async function tableMarkdown(block: Extract<Block, { type: 'TABLE' }>, signal: AbortSignal): Promise<string> {
  const t = await tableExcerpt(block, signal);
  return 'error' in t ? `**${block.content.name}**: the table could not be read (${t.error}).` : `**${block.content.name}** (${t.rowsNote})\n\n${t.table}`;
}

/**
 * Renders `stream` into `out`; `files` maps a source's file name to its workspace file, for
 * references. Resolves when the job ends (or fails, or is cancelled through `signal`).
 */
export async function renderAnswer(stream: JobStream, out: vscode.ChatResponseStream, ctx: { sessionId: string; files: ReadonlyMap<string, vscode.Uri>; signal: AbortSignal }): Promise<RenderedAnswer> {
  const questions: string[] = [];
  let jobId = '';
  let lastGroup: string | undefined;
  let lastWasText = false;
  const referenced = new Set<string>();
  for await (const ev of stream) {
    if (ev.kind === 'JOB_ID') jobId = ev.jobId;
    else if (ev.kind === 'TASK') {
      if (ev.task.status === 'running' && ev.task.name) out.progress(ev.task.name);
    } else if (ev.kind === 'BLOCK') {
      const b = ev.block;
      // A new group's text starts a paragraph; fragments of one text run on.
      const sep = lastGroup !== undefined && (b.groupId !== lastGroup || !lastWasText) ? '\n\n' : '';
      switch (b.type) {
        case 'MESSAGE':
          out.markdown(sep + b.content);
          break;
        case 'CODE':
          out.markdown(`\n\n${fenced(b.content)}\n\n`);
          break;
        case 'TABLE':
          out.markdown(`\n\n${await tableMarkdown(b, ctx.signal)}\n\n`);
          out.button({ command: SHOW_ANSWER_COMMAND, title: 'Open the Full Table', arguments: [ctx.sessionId, jobId] });
          break;
        case 'IMAGE':
          out.button({ command: SHOW_ANSWER_COMMAND, title: `Open the Chart: ${b.content.name}`, arguments: [ctx.sessionId, jobId] });
          break;
        case 'SOURCES':
          for (const src of b.content) {
            const uri = ctx.files.get(src.source);
            if (uri && !referenced.has(uri.toString())) {
              referenced.add(uri.toString());
              out.reference(uri);
            }
          }
          break;
        case 'QUESTIONS':
          questions.push(...b.content);
          break;
      }
      lastGroup = b.groupId;
      lastWasText = b.type === 'MESSAGE';
    }
  }
  return { answer: await stream.done, questions };
}
