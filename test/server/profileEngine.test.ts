import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as XLSX from '@e965/xlsx';
import { DuckDbStore } from '../../src/server/duckdb/duckDbStore';
import type { AnswerContext, IngestResult } from '../../src/server/engine';
import { csvField, toCsv } from '../../src/server/profile/csvFormat';
import { ProfileEngine } from '../../src/server/profile/profileEngine';
import { PROFILE_COLUMNS } from '../../src/server/profile/profileSql';
import { formatNumber } from '../../src/server/profile/profileSummary';
import { answerBlocks, foldEvents } from '../../src/shared/answerFold';
import { decodeEvent, encodeEvent } from '../../src/shared/blockCodecV1';
import type { Block, DataSource, FileRef, JobEvent } from '../../src/shared/domain';
import { seededRandom } from '../helpers/seededRandom';

const rng = seededRandom;

/** Minimal RFC 4180 parser, independent of the module under test. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += ch;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

interface Row {
  id: number;
  city: string;
  amount: number | null;
  qty: number;
  day: string;
  note: string | null;
}

const CITIES = ['Berlin', 'Paris', 'Tokyo', 'Lagos', 'Lima', 'Oslo'];
const NOTES = ['fine', 'needs "review"', 'late, again', 'multi\nline', 'ok'];

function generate(count: number): Row[] {
  const r = rng(20240521);
  const out: Row[] = [];
  for (let i = 1; i <= count; i++) {
    const day = new Date(Date.UTC(2024, 0, 1) + Math.floor(r() * 365) * 86_400_000).toISOString().slice(0, 10);
    out.push({
      id: i,
      city: CITIES[Math.floor(r() * r() * CITIES.length)] ?? 'Berlin',
      amount: r() < 0.1 ? null : Math.round(r() * 100_000) / 100,
      qty: 1 + Math.floor(r() * 50),
      day,
      note: r() < 0.2 ? null : NOTES[Math.floor(r() * NOTES.length)] ?? 'ok',
    });
  }
  // Three exact duplicates of earlier rows.
  out.push({ ...(out[3] as Row) }, { ...(out[10] as Row) }, { ...(out[10] as Row) });
  return out;
}

function toInputCsv(rows: Row[]): string {
  const q = (v: string | number | null): string => (v === null ? '' : /[",\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));
  return `id,city,amount,qty,day,note\n${rows.map((x) => [x.id, x.city, x.amount, x.qty, x.day, x.note].map(q).join(',')).join('\n')}\n`;
}

interface Expected {
  nonNull: number;
  nulls: number;
  distinct: number;
  min?: number | string;
  max?: number | string;
  mean?: number;
  top?: string;
}

/** The profile computed in TypeScript, independently of DuckDB. */
function expectedProfile(rows: Row[]): Record<string, Expected> {
  const col = <T extends number | string>(values: Array<T | null>): Expected => {
    const present = values.filter((v): v is T => v !== null);
    return { nonNull: present.length, nulls: values.length - present.length, distinct: new Set(present).size };
  };
  const numeric = (values: Array<number | null>): Expected => {
    const present = values.filter((v): v is number => v !== null);
    return { ...col(values), min: Math.min(...present), max: Math.max(...present), mean: present.reduce((a, b) => a + b, 0) / present.length };
  };
  const top = (values: Array<string | null>): string => {
    const counts = new Map<string, number>();
    for (const v of values) if (v !== null) counts.set(v, (counts.get(v) ?? 0) + 1);
    return [...counts.entries()]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .slice(0, 5)
      .map(([v, n]) => `${v.replace(/\s+/g, ' ')} (${n})`)
      .join('; ');
  };
  const days = rows.map((r) => r.day);
  const dayMs = days.map((d) => Date.parse(`${d}T00:00:00Z`));
  return {
    id: numeric(rows.map((r) => r.id)),
    city: { ...col(rows.map((r) => r.city)), top: top(rows.map((r) => r.city)) },
    amount: numeric(rows.map((r) => r.amount)),
    qty: numeric(rows.map((r) => r.qty)),
    day: { ...col(days), min: [...days].sort()[0] ?? '', max: [...days].sort().at(-1) ?? '', mean: dayMs.reduce((a, b) => a + b, 0) / dayMs.length },
    note: { ...col(rows.map((r) => r.note)), top: top(rows.map((r) => r.note)) },
  };
}

describe('ProfileEngine', function () {
  this.timeout(60_000);
  let dir: string;
  let store: DuckDbStore;
  let engine: ProfileEngine;

  interface Run {
    events: JobEvent[];
    files: Map<string, { name: string; contents: string; contentType: string }>;
  }

  async function add(id: string, fileName: string, contents: string | Uint8Array): Promise<{ source: DataSource; ingest: IngestResult }> {
    const path = join(dir, `${id}-${fileName}`);
    await writeFile(path, contents);
    const source: DataSource = { id, datasetId: 'ds-1', name: fileName, fileName, type: 'FILE', status: 'synched' };
    return { source, ingest: await store.ingest(source, path, new AbortController().signal) };
  }

  function context(sources: AnswerContext['sources'], run: Run, signal = new AbortController().signal, onEmit?: () => void): AnswerContext {
    return {
      jobId: 'job-1', question: 'Give me an overview of this data', languageType: 'AUTO', jobMode: 'AUTO', history: [], sources,
      emit: (e) => {
        run.events.push(e);
        onEmit?.();
      },
      publishFile: async (name, contents, contentType): Promise<FileRef> => {
        const url = `http://127.0.0.1/files/${run.files.size + 1}?token=t`;
        run.files.set(url, { name, contents: typeof contents === 'string' ? contents : Buffer.from(contents).toString('utf-8'), contentType });
        return { url, name, expiredAt: new Date(Date.UTC(2030, 0, 1)).toISOString() };
      },
      signal,
    };
  }

  async function answer(sources: AnswerContext['sources']): Promise<Run> {
    const run: Run = { events: [], files: new Map() };
    await engine.answer(context(sources, run));
    return run;
  }

  const blocks = (run: Run): Block[] => answerBlocks(foldEvents(run.events));
  const message = (run: Run): string => blocks(run).filter((b) => b.type === 'MESSAGE').map((b) => b.content as string).join('');

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tda-profile-'));
    store = await DuckDbStore.open(dir);
    engine = new ProfileEngine(store);
  });

  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  describe('on generated sales data', () => {
    const data = generate(600);
    const expected = expectedProfile(data);
    let run: Run;
    let csvRows: string[][];

    beforeEach(async () => {
      run = await answer([await add('sales-1', 'sales.csv', toInputCsv(data))]);
      const table = blocks(run).find((b) => b.type === 'TABLE');
      assert.ok(table && table.type === 'TABLE');
      const file = run.files.get(table.content.url);
      assert.ok(file, 'the TABLE links a published file');
      assert.equal(file.contentType, 'text/csv; charset=utf-8');
      assert.match(file.name, /^profile-sales\.csv$/);
      csvRows = parseCsv(file.contents);
    });

    it('publishes a profile CSV whose numbers match an independent computation', () => {
      assert.deepEqual(csvRows[0], [...PROFILE_COLUMNS]);
      const byName = new Map(csvRows.slice(1).map((r) => [r[0], r]));
      assert.deepEqual([...byName.keys()], ['id', 'city', 'amount', 'qty', 'day', 'note']);
      for (const [name, exp] of Object.entries(expected)) {
        const r = byName.get(name) ?? [];
        assert.equal(Number(r[2]), exp.nonNull, `${name} non_null_count`);
        assert.equal(Number(r[3]), exp.nulls, `${name} null_count`);
        assert.equal(Number(r[4]), exp.distinct, `${name} distinct_count`);
        if (name === 'day') {
          assert.equal(r[5], exp.min);
          assert.equal(r[6], exp.max);
          assert.ok(Math.abs(Date.parse(`${(r[7] ?? '').replace(' ', 'T')}Z`) - (exp.mean ?? 0)) < 1000, `day mean ${r[7]}`);
        } else if (typeof exp.min === 'number') {
          assert.equal(Number(r[5]), exp.min, `${name} min`);
          assert.equal(Number(r[6]), exp.max, `${name} max`);
          assert.ok(Math.abs(Number(r[7]) - (exp.mean ?? NaN)) < 1e-9 * Math.max(1, Math.abs(exp.mean ?? 0)), `${name} mean ${r[7]}`);
          assert.equal(r[8], '', `${name} has no top values`);
        } else {
          assert.equal(r[8], exp.top, `${name} top values`);
          assert.equal(r[5], '');
        }
      }
    });

    it('summarises the same numbers in the MESSAGE, streamed as several fragments', () => {
      const fragments = run.events.filter((e) => e.kind === 'BLOCK' && e.block.type === 'MESSAGE');
      assert.ok(fragments.length >= 2, 'the summary arrives as several MESSAGE fragments');
      const text = message(run);
      assert.match(text, new RegExp(`\\*\\*sales\\.csv\\*\\*: ${formatNumber(data.length)} rows, 6 columns\\.`));
      const amount = expected['amount'] as Expected;
      assert.ok(text.includes(`\`amount\`: ${formatNumber(amount.min as number)} to ${formatNumber(amount.max as number)}, mean ${formatNumber(amount.mean as number)}`), text);
      const qty = expected['qty'] as Expected;
      assert.ok(text.includes(`\`qty\`: ${qty.min} to ${qty.max}, mean ${formatNumber(qty.mean as number)}`), text);
      assert.ok(text.includes(`\`day\`: ${String(expected['day']?.min)} to ${String(expected['day']?.max)}`), text);
      const pct = (n: number): string => ((Math.round((n / data.length) * 1000) / 10).toFixed(1));
      assert.ok(text.includes(`\`amount\`: ${amount.nulls} (${pct(amount.nulls)}%)`), text);
      const note = expected['note'] as Expected;
      assert.ok(text.includes(`\`note\`: ${note.nulls} (${pct(note.nulls)}%)`), text);
      assert.ok(text.includes(`\`city\`: ${expected['city']?.distinct} distinct values; most common: ${expected['city']?.top}`), text);
      assert.match(text, /Duplicate rows: 3 rows repeat an earlier row exactly\./);
    });

    it('emits Analyze steps, then the Respond group, then SOURCES, in the contract order', () => {
      const shape = run.events.map((e) => {
        if (e.kind === 'TASK') return `TASK:${e.task.stage}:${e.place.groupId}:${e.task.status}`;
        if (e.kind === 'BLOCK') return `${e.block.type}:${e.block.stage}:${e.block.groupId}`;
        return e.kind;
      });
      const collapsed = shape.filter((s, i) => !(s.startsWith('MESSAGE') && shape[i - 1]?.startsWith('MESSAGE')));
      assert.deepEqual(collapsed, [
        'TASK:Analyze:step-1:running', 'CODE:Analyze:step-1', 'TABLE:Analyze:step-1', 'TASK:Analyze:step-1:done',
        'TASK:Respond:respond:running', 'MESSAGE:Respond:respond', 'QUESTIONS:Respond:-1', 'TASK:Respond:respond:done',
        'SOURCES:Respond:',
      ]);
      const answerModel = foldEvents(run.events);
      assert.equal(answerModel.groups[0]?.name, `Profile sales.csv (${formatNumber(data.length)} rows, 6 columns)`);
      assert.equal(answerModel.groups.find((g) => g.id === 'respond')?.name, 'Conclusions');
      const questions = blocks(run).find((b) => b.type === 'QUESTIONS');
      assert.ok(questions?.type === 'QUESTIONS');
      assert.equal(questions.content.length, 3);
      assert.ok(questions.content.some((q) => q.includes('amount') || q.includes('qty')), questions.content.join(' | '));
      const sources = blocks(run).find((b) => b.type === 'SOURCES');
      assert.deepEqual(sources?.content, [{ source: 'sales.csv', datasourceId: 'sales-1', datasetId: 'ds-1', fileType: 'csv', externalId: '' }]);
    });

    it('shows SQL that runs as-is in DuckDB and reproduces the table and the row counts', async () => {
      const code = blocks(run).find((b) => b.type === 'CODE');
      assert.ok(code?.type === 'CODE');
      const m = /^(`{3,})sql\n([\s\S]*)\n\1$/.exec(code.content);
      assert.ok(m, 'a ```sql fenced block');
      const script = m[2] ?? '';
      const whole = await store.query(script);
      const tableFile = [...run.files.values()][0];
      assert.equal(toCsv(PROFILE_COLUMNS, whole.rows), tableFile?.contents);
      const first = script.split(/;\n\n(?=-- )/)[0] ?? '';
      const overview = await store.query(first);
      assert.deepEqual(overview.columns.map((c) => c.name), ['row_count', 'duplicate_rows']);
      assert.deepEqual(overview.rows, [[data.length, 3]]);
    });

    it('survives the SSE wire codec unchanged', () => {
      const decoded = run.events.map((e) => {
        const frame = encodeEvent(e, 1_700_000_000);
        assert.ok(frame);
        return decodeEvent(frame.event, frame.data);
      });
      assert.deepEqual(answerBlocks(foldEvents(decoded)), blocks(run));
    });
  });

  it('profiles every sheet of a workbook and describes text sources', async () => {
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['region', 'units'], ['North', 3], ['South', 5], ['North', 4]]), 'Q1');
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['region', 'units'], ['East', 10]]), 'Q2');
    const book = await add('book-1', 'plan.xlsx', XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer);
    const notes = await add('notes-1', 'notes.md', '---\ntitle: t\n---\n# Goals\n\nShip the **profile** engine\nthis week.\n\n## Risks\n\n```\n# not a heading\n```\n');
    const run = await answer([book, notes]);
    const groups = foldEvents(run.events).groups.filter((g) => g.stage === 'Analyze');
    assert.deepEqual(groups.map((g) => [g.name, g.status]), [
      ['Profile plan.xlsx, sheet Q1 (3 rows, 2 columns)', 'done'],
      ['Profile plan.xlsx, sheet Q2 (1 row, 2 columns)', 'done'],
      [`Read notes.md (${notes.ingest.kind === 'text' ? formatNumber(notes.ingest.chars) : '?'} characters)`, 'done'],
    ]);
    assert.equal(run.files.size, 2);
    const text = message(run);
    assert.match(text, /\*\*plan\.xlsx, sheet Q1\*\*: 3 rows, 2 columns\./);
    assert.match(text, /`units`: 3 to 5, mean 4/);
    assert.match(text, /`region`: 2 distinct values; most common: North \(2\); South \(1\)/);
    assert.match(text, /\*\*notes\.md\*\*: text document/);
    assert.match(text, /Headings \(2\): Goals · Risks/);
    assert.match(text, /> Ship the \*\*profile\*\* engine this week\./);
    const sources = blocks(run).find((b) => b.type === 'SOURCES');
    assert.deepEqual(sources?.content.map((s: { fileType: string }) => s.fileType), ['xlsx', 'md']);
  });

  it('quotes awkward column names so the SQL still runs as-is', async () => {
    const header = ['"it\'s ""q"""', 'Größe', '```tick```', 'a;b'].join(',');
    const src = await add('odd-1', 'odd.csv', `${header}\n1,x,y,2\n3,,z,4\n`);
    const run = await answer([src]);
    const code = blocks(run).find((b) => b.type === 'CODE');
    assert.ok(code?.type === 'CODE');
    assert.ok(code.content.startsWith('````sql\n'), 'the fence outgrows backticks inside');
    const script = /^(`{3,})sql\n([\s\S]*)\n\1$/.exec(code.content)?.[2] ?? '';
    const result = await store.query(script);
    assert.equal(toCsv(PROFILE_COLUMNS, result.rows), [...run.files.values()][0]?.contents);
    assert.deepEqual(result.rows.map((r) => r[0]), ['it\'s "q"', 'Größe', '```tick```', 'a;b']);
    assert.deepEqual(result.rows[1]?.slice(2, 5), [1, 1, 1]);
  });

  it('explains how to add data when no source is selected', async () => {
    const run = await answer([]);
    const text = message(run);
    assert.match(text, /No data sources are selected/);
    assert.match(text, /CSV, TSV, JSON, XLSX or XLS/);
    assert.ok(!blocks(run).some((b) => b.type === 'SOURCES' || b.type === 'TABLE'));
    assert.ok(run.events.every((e) => e.kind !== 'TASK' || e.task.stage === 'Respond'));
  });

  it('marks a step failed and says so when a table has gone missing', async () => {
    const a = await add('gone-1', 'gone.csv', 'x\n1\n');
    const b = await add('kept-1', 'kept.csv', 'y\n2\n');
    await store.drop('gone-1');
    const run = await answer([a, b]);
    const groups = foldEvents(run.events).groups.filter((g) => g.stage === 'Analyze');
    assert.deepEqual(groups.map((g) => g.status), ['error', 'done']);
    assert.match(message(run), /\*\*gone\.csv\*\*: could not be profiled/);
    assert.match(message(run), /\*\*kept\.csv\*\*: 1 row, 1 column\./);
  });

  it('stops when the job is aborted', async () => {
    const src = await add('big-1', 'big.csv', toInputCsv(generate(2000)));
    const run: Run = { events: [], files: new Map() };
    const ac = new AbortController();
    await assert.rejects(
      engine.answer(context([src], run, ac.signal, () => ac.abort())),
      (err: unknown) => (err as Error).name === 'AbortError',
    );
    assert.equal(run.events.length, 1, 'nothing is emitted after the abort');
  });

  it('writes CSV fields with RFC 4180 quoting', () => {
    assert.equal(csvField('plain'), 'plain');
    assert.equal(csvField('a,b'), '"a,b"');
    assert.equal(csvField('say "hi"'), '"say ""hi"""');
    assert.equal(csvField('two\nlines'), '"two\nlines"');
    assert.equal(csvField(' padded'), '" padded"');
    assert.equal(csvField(null), '');
    assert.equal(csvField(1.5), '1.5');
    assert.equal(toCsv(['a', 'b'], [[1, 'x,y'], [null, 'z']]), 'a,b\r\n1,"x,y"\r\n,z\r\n');
    assert.deepEqual(parseCsv(toCsv(['q'], [['"\r\n,']])), [['q'], ['"\r\n,']]);
  });
});
