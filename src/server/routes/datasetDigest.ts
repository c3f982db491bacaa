/**
 * The made-from-the-data part of a dataset overview (v2 `summary`, `exploration_questions`,
 * `keywords`): what each ready source holds (rows, columns, document length), questions the engine
 * answers, and the words that name the data (its columns and files). Nothing here is canned: an
 * empty dataset says it is empty.
 */
import type { DatasetOverview } from '../../shared/domain';
import type { IngestResult } from '../engine';
import type { ServiceDeps } from '../serviceDeps';
import { toDataSource, type SourceRecord } from '../state/records';

const MAX_KEYWORDS = 12;
const SHOWN_COLUMNS = 6;

const fmt = (n: number): string => n.toLocaleString('en-US');
const plural = (n: number, noun: string): string => `${fmt(n)} ${noun}${n === 1 ? '' : 's'}`;

function describeSource(name: string, ingest: IngestResult): string {
  if (ingest.kind === 'text') return `${name}, a document of ${plural(ingest.chars, 'character')}`;
  const parts = ingest.tables.map((t) => {
    const cols = t.columns.map((c) => c.name);
    const shown = cols.slice(0, SHOWN_COLUMNS).join(', ') + (cols.length > SHOWN_COLUMNS ? ', …' : '');
    const where = t.sheet !== undefined ? ` (sheet ${t.sheet})` : '';
    return `${plural(t.rowCount, 'row')} and ${plural(cols.length, 'column')}${where}: ${shown}`;
  });
  return `${name}, ${parts.join('; ')}`;
}

/** Column and file names as words: `order_date` -> `order date`; ids and duplicates left out. */
function keywordsOf(ready: ReadonlyArray<{ name: string; ingest: IngestResult }>): string[] {
  const out: string[] = [];
  const add = (raw: string): void => {
    const w = raw.replace(/\.[a-z0-9]+$/i, '').replace(/[_\-.]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').trim().toLowerCase();
    if (w === '' || /^(id|key|index|row|unnamed.*|column\d*)$/.test(w) || / id$/.test(w) || out.includes(w)) return;
    if (out.length < MAX_KEYWORDS) out.push(w);
  };
  for (const r of ready) {
    if (r.ingest.kind === 'text') add(r.name);
    else for (const t of r.ingest.tables) for (const c of t.columns) add(c.name);
  }
  return out;
}

export async function datasetDigest(
  deps: Pick<ServiceDeps, 'store' | 'engine' | 'log'>, sources: readonly SourceRecord[],
): Promise<Pick<DatasetOverview, 'summary' | 'explorationQuestions' | 'keywords'>> {
  const ready: Array<{ name: string; record: SourceRecord; ingest: IngestResult }> = [];
  for (const s of sources) {
    if (s.status !== 'synched') continue;
    const ingest = await deps.store.describe(s.id);
    if (ingest !== undefined) ready.push({ name: s.fileName, record: s, ingest });
  }
  const pending = sources.filter((s) => s.status === 'synching' || (s.status === 'invalid' && s.error === undefined)).length;
  const failed = sources.filter((s) => s.status === 'invalid' && s.error !== undefined).length;
  let summary = ready.length === 0
    ? sources.length === 0 ? 'This dataset has no data sources yet.' : 'None of the data sources of this dataset is ready yet.'
    : `This dataset has ${plural(ready.length, 'data source')} ready to analyze: ${ready.map((r) => describeSource(r.name, r.ingest)).join('; ')}.`;
  if (ready.length > 0 && pending > 0) summary += ` ${plural(pending, 'more source')} ${pending === 1 ? 'is' : 'are'} still being processed.`;
  if (failed > 0) summary += ` ${plural(failed, 'source')} could not be processed.`;
  let explorationQuestions: string[] = [];
  if (ready.length > 0 && deps.engine.firstQuestions) {
    try {
      explorationQuestions = await deps.engine.firstQuestions(ready.map((r) => ({ source: toDataSource(r.record), ingest: r.ingest })));
    } catch (e) {
      // The overview still answers; only the questions are missing.
      deps.log('warn', `could not suggest questions for a dataset overview: ${String(e)}`);
    }
  }
  return { summary, explorationQuestions, keywords: keywordsOf(ready) };
}
