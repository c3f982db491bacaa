/**
 * The engine's own cost on a wide table (60 columns: measures, categories, flags, dates), two ways:
 * 1. Understanding: reading a question into its plan (every reading, word check and decision),
 *    p50 and p99 per question, against the bare DuckDB run of the statement it produces.
 * 2. Overhead: a whole answer (understanding, probes of close readings, guarded SQL, CSV, chart,
 *    narrative) against running the very statements it ran, bare, on the same store. Both sides
 *    get a warm-up; the ratio is over the sum of all questions.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDbStore, type QueryOptions, type QueryParam, type QueryResult } from '../src/server/duckdb/duckDbStore';
import type { AnswerContext } from '../src/server/engine';
import { LocalAnalysisEngine } from '../src/server/engine/localEngine';
import { readQuestion } from '../src/server/engine/reader';
import { SchemaIndex } from '../src/server/engine/schemaIndex';
import type { DataSource } from '../src/shared/domain';
import type { BenchResult } from './types';

const ROWS = 300_000;
const REPEATS = 20;
const REGIONS = ['North', 'South', 'East', 'West', 'Central'];
const PLANS = ['basic', 'plus', 'pro', 'enterprise'];
const CHANNELS = ['web', 'store', 'phone', 'partner'];

const QUESTIONS = [
  'total revenue by region', 'average order value per month', 'how many orders came from the web channel', 'top 5 products by units sold',
  'average delivery days for premium customers', 'revenue in 2024 by plan', 'how many returned orders are there', 'median basket size by channel',
  'is discount correlated with revenue', 'which region has the highest average margin', 'orders with more than 3 items', 'distribution of delivery days',
  'average satisfaction score for returned orders', 'how many customers per region', 'total shipping cost in Q2 2024', 'what share of orders are gifts',
  'average revenue for enterprise customers since 2023', 'max weight by warehouse', 'how many orders have no coupon', 'monthly revenue trend',
  'highest revenue order', 'average page views by device', 'total tax by country', 'how many days had more than 500 orders',
];

const seeded = (seed: number): (() => number) => () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
};

/** A 60-column order table: 25 measures, 14 categories, 10 flags, 4 dates, ids and text. */
async function generate(path: string): Promise<void> {
  const rand = seeded(11);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  const measures = ['revenue', 'units_sold', 'items', 'discount', 'margin', 'insurance', 'packaging_cost', 'loyalty_points', 'shipping_cost', 'tax', 'weight', 'delivery_days', 'satisfaction_score',
    'page_views', 'basket_size', 'order_value', 'refund_amount', 'points_earned', 'list_price', 'unit_cost', 'handling_minutes', 'distance_km',
    'support_calls', 'session_seconds', 'coupon_value', 'fee', 'rating', 'return_rate'];
  const cats = { region: REGIONS, plan: PLANS, channel: CHANNELS, country: ['DE', 'FR', 'ES', 'IT', 'NL', 'PL', 'SE'], device: ['mobile', 'desktop', 'tablet'],
    warehouse: ['W1', 'W2', 'W3', 'W4'], product: Array.from({ length: 40 }, (_v, i) => `Product ${i + 1}`), category: ['Tools', 'Garden', 'Kitchen', 'Toys', 'Books'],
    carrier: ['DHL', 'UPS', 'GLS'], payment: ['card', 'paypal', 'invoice'], segment: ['consumer', 'business'], currency: ['EUR', 'SEK', 'PLN'],
    status: ['delivered', 'shipped', 'cancelled'], source: ['ads', 'organic', 'email', 'social'] };
  const flags = ['returned', 'gift', 'premium', 'first_order', 'express', 'coupon_used', 'fraud_check', 'subscribed', 'b2b', 'international'];
  const header = ['order_id', 'customer_id', 'order_date', 'ship_date', 'delivery_date', 'signup_date', ...measures, ...Object.keys(cats), ...flags, 'note', 'coupon'];
  const out = createWriteStream(path);
  out.write(`${header.join(',')}\n`);
  for (let id = 1; id <= ROWS;) {
    let chunk = '';
    for (let k = 0; k < 5000 && id <= ROWS; k++, id++) {
      const d = new Date(Date.UTC(2022, 0, 1) + Math.floor(rand() * 1095) * 86_400_000);
      const iso = (x: Date): string => x.toISOString().slice(0, 10);
      const ship = new Date(d.getTime() + Math.floor(rand() * 4) * 86_400_000);
      const row = [id, `C${Math.floor(rand() * 20_000)}`, iso(d), iso(ship), iso(new Date(ship.getTime() + 2 * 86_400_000)), iso(new Date(d.getTime() - 400 * 86_400_000)),
        ...measures.map((m) => (m === 'items' ? 1 + Math.floor(rand() * 8) : (rand() * 500).toFixed(2))),
        ...Object.values(cats).map(pick), ...flags.map(() => (rand() < 0.2 ? 'true' : 'false')), rand() < 0.1 ? 'call back' : '', rand() < 0.3 ? '' : `SAVE${Math.floor(rand() * 50)}`];
      chunk += `${row.join(',')}\n`;
    }
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

const ms = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e6;
const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length - 1) * p))] ?? NaN;
};

/** A store that records every statement the engine runs, with its time. */
function recording(store: DuckDbStore, log: Array<{ sql: string; ms: number }>): DuckDbStore {
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop !== 'query') return Reflect.get(target, prop, receiver) as unknown;
      return async (sql: string, params?: QueryParam[], opts?: QueryOptions): Promise<QueryResult> => {
        const t = process.hrtime.bigint();
        const r = await target.query(sql, params, opts);
        log.push({ sql, ms: ms(t) });
        return r;
      };
    },
  });
}

export async function runUnderstandBench(): Promise<BenchResult[]> {
  const dir = await mkdtemp(join(tmpdir(), 'team-data-understand-bench-'));
  const store = await DuckDbStore.open(join(dir, 'data'));
  try {
    const csv = join(dir, 'orders.csv');
    await generate(csv);
    const source: DataSource = { id: 'wide', datasetId: 'bench', name: 'orders.csv', fileName: 'orders.csv', type: 'FILE', status: 'synched' };
    const ingest = await store.ingest(source, csv, new AbortController().signal);
    const schema = new SchemaIndex(async (sql) => (await store.query(sql, [], { timeoutMs: 60_000, maxRows: 100_000 })).rows);
    const tables = await schema.tables([{ source, ingest }]);
    const columns = tables[0]?.columns.length ?? 0;

    // 1. Understanding, per question.
    for (const q of QUESTIONS) readQuestion(q, [], tables);
    const times: number[] = [];
    for (let r = 0; r < REPEATS; r++) {
      for (const q of QUESTIONS) {
        const t = process.hrtime.bigint();
        readQuestion(q, [], tables);
        times.push(ms(t));
      }
    }
    // 2. Whole answers, recording what they ran, then the same statements bare.
    const log: Array<{ sql: string; ms: number }> = [];
    const engine = new LocalAnalysisEngine(recording(store, log), { llm: null });
    const answer = async (q: string): Promise<number> => {
      const ctx: AnswerContext = {
        jobId: 'bench', question: q, languageType: 'EN', jobMode: 'AUTO', sources: [{ source, ingest }], history: [],
        emit: () => undefined, signal: new AbortController().signal,
        publishFile: async (name) => ({ url: `http://127.0.0.1/${name}`, name, expiredAt: new Date().toISOString() }),
      };
      const t = process.hrtime.bigint();
      await engine.answer(ctx);
      return ms(t);
    };
    for (const q of QUESTIONS) await answer(q); // warm-up: schema index, chart views, statement cache
    let whole = 0;
    let bare = 0;
    const answered: number[] = [];
    for (const q of QUESTIONS) {
      log.length = 0;
      whole += await answer(q);
      const ran = log.filter((x) => !/json_serialize_sql/.test(x.sql)).map((x) => x.sql);
      for (const sql of ran) await store.query(sql, [], { timeoutMs: 60_000, maxRows: 10_000 }); // warm the bare side too
      const t = process.hrtime.bigint();
      for (const sql of ran) await store.query(sql, [], { timeoutMs: 60_000, maxRows: 10_000 });
      bare += ms(t);
      answered.push(ran.length);
    }
    const p50 = pct(times, 0.5);
    const p99 = pct(times, 0.99);
    return [
      {
        name: `understanding a question on a ${columns}-column table (${QUESTIONS.length} questions x ${REPEATS}): p50 vs the bare DuckDB time of the statements answers run`,
        ours: p50, baseline: bare / Math.max(1, answered.reduce((a, b) => a + b, 0)), ratio: p50 / (bare / Math.max(1, answered.reduce((a, b) => a + b, 0))),
        unit: 'ms', target: 'p99 < 50 ms', pass: p99 < 50,
        note: `p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms per question (every reading, word check and decision); baseline = mean bare statement time`,
      },
      {
        name: `whole answers on ${ROWS.toLocaleString('en-US')} rows x ${columns} columns vs the same SQL run bare on the same store`,
        ours: whole, baseline: bare, ratio: whole / bare, unit: 'ms', target: 'overhead < 50 ms per answer', pass: (whole - bare) / QUESTIONS.length < 50,
        note: `sum over ${QUESTIONS.length} questions after a warm-up: ${((whole - bare) / QUESTIONS.length).toFixed(1)} ms of overhead per answer (understanding, probes of close readings, the SQL guard, CSV and chart files, narrative)`,
      },
    ];
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}
