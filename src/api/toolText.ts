/**
 * An answer as an agent reads it: short and complete. How the question was read (the analysis
 * steps), the finding (the written answer), the first rows of the result table as a markdown
 * table, the SQL, and where the full answer can be opened. An answer without a result (no table,
 * no code) is flagged, so a tool can report "could not answer" rather than pass it off as one.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { answerBlocks } from '../shared/answerFold';
import type { Answer, Block, DataSource, Dataset } from '../shared/domain';
import { parseCsv } from '../shared/csv';
import type { ToolAnswer } from './analysisTools';
import { downloadFile } from './fileDownload';

/** Rows of the result table shown to the agent; the full table is a file. */
export const TOOL_TABLE_ROWS = 10;
const MAX_FINDING_CHARS = 4000;
const MAX_TABLE_BYTES = 16 * 1024 * 1024;

export interface ToolText {
  text: string;
  /** The service gave no result to go with the words (it could not, or would not, answer). */
  unanswered: boolean;
}

function cell(v: string): string {
  return v.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** The first rows of a CSV as a markdown table, with the row count. */
export function markdownTable(csv: string, maxRows = TOOL_TABLE_ROWS): { table: string; rows: number } {
  const rows = parseCsv(csv).filter((r) => r.length > 1 || (r[0] ?? '') !== '');
  const [header, ...body] = rows;
  if (!header) return { table: '', rows: 0 };
  const lines = [`| ${header.map(cell).join(' | ')} |`, `|${header.map(() => ' --- ').join('|')}|`];
  for (const r of body.slice(0, maxRows)) lines.push(`| ${header.map((_h, i) => cell(r[i] ?? '')).join(' | ')} |`);
  return { table: lines.join('\n'), rows: body.length };
}

/** The first rows of an answer's table file as a markdown table, or why it could not be read. */
export async function tableExcerpt(block: Extract<Block, { type: 'TABLE' }>, signal?: AbortSignal): Promise<{ table: string; rowsNote: string } | { error: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'team-data-tool-'));
  try {
    const got = await downloadFile(block.content.url, dir, { maxBytes: MAX_TABLE_BYTES, ...(signal ? { signal } : {}) });
    const { table, rows } = markdownTable(await readFile(got.path, 'utf8'));
    const shown = Math.min(rows, TOOL_TABLE_ROWS);
    return { table, rowsNote: shown === rows ? `${rows} rows` : `first ${shown} of ${rows} rows` };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function tableText(block: Extract<Block, { type: 'TABLE' }>, signal?: AbortSignal): Promise<string> {
  const t = await tableExcerpt(block, signal);
  return 'error' in t ? `Table ${block.content.name}: could not be read (${t.error})` : `Table ${block.content.name} (${t.rowsNote}):\n${t.table}`;
}

function sqlOf(blocks: readonly Block[]): string | undefined {
  const code = blocks.filter((b): b is Extract<Block, { type: 'CODE' }> => b.type === 'CODE').map((b) => b.content.trim());
  if (code.length === 0) return undefined;
  // CODE blocks arrive fenced; show each once, fenced.
  return code.map((c) => (c.startsWith('```') ? c : `\`\`\`sql\n${c}\n\`\`\``)).join('\n');
}

/** The finding: the written answer of the Respond stage (all MESSAGE text when there is none). */
function findingOf(answer: Answer): string {
  const respond = answer.groups.filter((g) => g.stage === 'Respond').flatMap((g) => g.blocks);
  const pick = (bs: readonly Block[]): string => bs.flatMap((b) => (b.type === 'MESSAGE' ? [b.content.trim()] : [])).filter(Boolean).join('\n\n');
  const text = pick(respond) || pick(answerBlocks(answer));
  return text.length > MAX_FINDING_CHARS ? `${text.slice(0, MAX_FINDING_CHARS)}…` : text;
}

/** How the question was read: the names of the analysis steps. */
function readingOf(answer: Answer): string {
  return answer.groups.filter((g) => g.stage === 'Analyze' && g.name).map((g) => g.name).join('; ');
}

export async function answerText(r: ToolAnswer, opts: { openHint?: string; signal?: AbortSignal } = {}): Promise<ToolText> {
  const { answer } = r;
  const blocks = answerBlocks(answer);
  const parts: string[] = [`Question: ${r.question}`, `Data: ${r.dataset.name} (${r.files.join(', ')})`];
  const reading = readingOf(answer);
  if (reading) parts.push(`Reading: ${reading}`);
  if (answer.state === 'error') parts.push(`The service reported an error: ${answer.error?.message ?? 'unknown error'}`);
  else if (answer.state !== 'done') parts.push(`The answer is incomplete (${answer.state}).`);
  const finding = findingOf(answer);
  if (finding) parts.push(`Finding:\n${finding}`);
  const tables = blocks.filter((b): b is Extract<Block, { type: 'TABLE' }> => b.type === 'TABLE');
  for (const t of tables.slice(0, 3)) parts.push(await tableText(t, opts.signal));
  const sql = sqlOf(blocks);
  if (sql) parts.push(`SQL:\n${sql}`);
  const files = blocks.flatMap((b) => (b.type === 'TABLE' || b.type === 'IMAGE' ? [`${b.content.name} (${b.type === 'TABLE' ? 'table' : 'chart'})`] : []));
  parts.push(`Full answer: job ${answer.jobId || '(none)'} in session ${r.sessionId}${files.length ? `, with ${files.join(', ')}` : ''}.${opts.openHint ? ` ${opts.openHint}` : ''}`);
  const unanswered = answer.state !== 'done' || (tables.length === 0 && sql === undefined);
  return { text: parts.join('\n\n'), unanswered };
}

export function datasetsText(list: ReadonlyArray<{ dataset: Dataset; sources: DataSource[] }>): string {
  if (list.length === 0) return 'No datasets yet. Analyze files to create one.';
  return list
    .map(({ dataset, sources }) => {
      const files = sources.map((s) => `  - ${s.fileName || s.name} (${s.status}${s.status === 'invalid' && s.error ? `: ${s.error}` : ''})`);
      return [`${dataset.name} (id ${dataset.id}): ${sources.length} file${sources.length === 1 ? '' : 's'}`, ...files].join('\n');
    })
    .join('\n');
}
