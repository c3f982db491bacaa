/**
 * Executes a plan: its statements (through the guarded {@link Executor}), the published TABLE, a
 * chart when one helps, and the finding. Steps are emitted as the work happens.
 */
import { toCsv } from '../profile/csvFormat';
import { fileNameFor, sqlBlock, type AnswerWriter } from './answerWriter';
import { MAX_CATEGORIES, renderChart, type ChartRequest } from './charts';
import { code, describePlan, isCyclic } from './describe';
import type { Executor } from './executor';
import { finding, type ResultData } from './narrative';
import { readingLine, readingSentence } from './readingLine';
import { shownPreamble } from './recipe';
import { buildQuery, histogramStatement, rangeStatement, type Statement } from './sqlBuilder';
import { correlationScanSql, correlationSql, duplicatesSql, missingSql, outliersSql } from './statsSql';
import { totalsNote, withoutTotals } from './totalRows';
import type { Plan, TableMeta } from './types';

export interface PlanAnswer {
  message: string;
  tables: TableMeta[];
}

const n = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN);

/** A "nice" bin width (1, 2, 2.5 or 5 times a power of ten) giving about `bins` bins. */
export function niceWidth(lo: number, hi: number, bins = 20): number {
  const span = hi - lo;
  if (!(span > 0)) return 1;
  const raw = span / bins;
  const p = 10 ** Math.floor(Math.log10(raw));
  const m = [1, 2, 2.5, 5, 10].find((k) => k * p >= raw) ?? 10;
  return m * p;
}

type Body = { tables: TableMeta[]; main: ResultData; chart?: ChartRequest };

async function runBody(plan: Exclude<Plan, { kind: 'overview' }>, ex: Executor, title: string): Promise<Body> {
  const data = (r: { columns: Array<{ name: string }>; rows: unknown[][]; truncated: boolean }): ResultData => ({
    columns: r.columns.map((c) => c.name), rows: r.rows.map((row) => row.map(cleanNumber)), truncated: r.truncated,
  });
  switch (plan.kind) {
    case 'aggregate':
    case 'rows': {
      const q = buildQuery(plan);
      q.main.comment = describePlan(plan);
      const main = data(await ex.run(q.tables, q.main));
      // Groups are counted only when the answer shows part of them (a top N, a capped result).
      const partial = plan.kind === 'rows' || plan.limit !== undefined || main.truncated;
      if (q.count && partial) {
        q.count.comment = plan.kind === 'rows' ? 'How many rows match' : 'How many groups there are';
        main.extra = (await ex.run(q.tables, q.count, 1)).rows[0] ?? [];
      }
      return { tables: q.tables, main, ...chartFor(plan, main, title) };
    }
    case 'histogram': {
      const range = rangeStatement(plan.col, plan.filters);
      range.comment = `Range of ${plan.col.column.name}`;
      const r = (await ex.run(range.tables, range, 1)).rows[0] ?? [];
      const lo = n(r[0]);
      const hi = n(r[1]);
      const distinct = n(r[3]);
      const integral = Number.isInteger(lo) && Number.isInteger(hi);
      let width = integral && distinct <= 25 && hi - lo <= 60 ? 1 : niceWidth(lo, hi);
      if (integral && width < 1) width = 1;
      const q = histogramStatement(plan.col, plan.filters, width, 0);
      q.main.comment = `${describePlan(plan)}: bins of width ${width}`;
      const main = data(await ex.run(q.tables, q.main));
      return { tables: q.tables, main, chart: { kind: 'histogram', title, x: 'bin_start', x2: 'bin_end', xTitle: plan.col.column.name, y: 'row_count', xType: 'quantitative', rows: objects(main) } };
    }
    case 'correlation': {
      const q = correlationSql(plan.x, plan.y, plan.filters);
      const main = data(await ex.run(q.tables, q.statements[0] as Statement, 1));
      const pts = await ex.run(q.tables, q.points, 1000);
      const rows = pts.rows.map((p) => ({ [plan.x.column.name]: p[0], [plan.y.column.name]: p[1] }));
      return { tables: q.tables, main, chart: { kind: 'scatter', title, x: plan.x.column.name, y: plan.y.column.name, xType: 'quantitative', rows } };
    }
    default: {
      const q = plan.kind === 'correlationScan' ? correlationScanSql(plan.target, plan.others, plan.filters)
        : plan.kind === 'missing' ? missingSql(plan.table, plan.col)
          : plan.kind === 'duplicates' ? duplicatesSql(plan.table, plan.cols)
            : outliersSql(plan.table, plan.cols, plan.filters);
      const results = [];
      for (const s of q.statements) results.push(await ex.run(q.tables, s));
      const main = data(results[q.main] ?? { columns: [], rows: [], truncated: false });
      if (q.main > 0) main.extra = results[0]?.rows[0] ?? [];
      let chart: ChartRequest | undefined;
      if (plan.kind === 'correlationScan') chart = { kind: 'bar', title, x: 'column_name', y: 'correlation', xType: 'nominal', rows: objects(main), keepOrder: true };
      if (plan.kind === 'missing' && !plan.col && main.rows.some((r) => n(r[1]) > 0)) {
        chart = { kind: 'bar', title, x: 'column_name', y: 'missing_pct', xType: 'nominal', rows: objects(main).filter((o) => n(o['missing_values']) > 0), keepOrder: true };
      }
      return { tables: q.tables, main, ...(chart ? { chart } : {}) };
    }
  }
}

/**
 * Doubles lose their last bits in sums (17832.749999999993): 13 significant digits give back the
 * decimal value users expect, and nothing meaningful is lost.
 */
export function cleanNumber(v: unknown): unknown {
  return typeof v === 'number' && Number.isFinite(v) && !Number.isInteger(v) ? Number(v.toPrecision(13)) : v;
}

function objects(r: ResultData): Array<Record<string, unknown>> {
  return r.rows.map((row) => Object.fromEntries(r.columns.map((c, i) => [c, row[i]])));
}

/** The chart an aggregate answer deserves: line over time, bars over categories, none for one number. */
function chartFor(plan: Plan, r: ResultData, title: string): { chart?: ChartRequest } {
  if (plan.kind !== 'aggregate' || plan.chart === 'none' || plan.dims.length === 0 || plan.shareOfFiltered || r.rows.length < 2) return {};
  const [d1, d2] = plan.dims;
  const names = r.columns;
  const y = names[plan.dims.length] ?? '';
  const timeIndex = plan.dims.findIndex((d) => d.grain !== undefined);
  const rows = objects(r);
  if (timeIndex >= 0 && plan.chart !== 'bar') {
    const x = names[timeIndex] ?? '';
    const grain = plan.dims[timeIndex]?.grain;
    const other = plan.dims.length === 2 ? names[1 - timeIndex] : undefined;
    const cyclic = isCyclic(grain);
    if (cyclic) return { chart: { kind: 'bar', title, x, y, xType: 'ordinal', rows, keepOrder: true, ...(other ? { color: other } : {}) } };
    return { chart: { kind: 'line', title, x, y, xType: grain === 'year' || grain === 'decade' ? 'ordinal' : 'temporal', rows, ...(other ? { color: other } : {}) } };
  }
  const capped = d2 === undefined ? rows.slice(0, MAX_CATEGORIES) : rows.slice(0, MAX_CATEGORIES * 4);
  const chartTitle = rows.length > capped.length ? `${title} (first ${capped.length} of ${rows.length})` : title;
  const xType = d1?.grain === 'year' || d1?.grain === 'decade' || isCyclic(d1?.grain) ? 'ordinal' : d1?.grain !== undefined ? 'temporal' : 'nominal';
  if (plan.chart === 'line') return { chart: { kind: 'line', title: chartTitle, x: names[0] ?? '', y, xType: xType === 'nominal' ? 'ordinal' : xType, rows: capped, ...(d2 ? { color: names[1] ?? '' } : {}) } };
  return { chart: { kind: 'bar', title: chartTitle, x: names[0] ?? '', y, xType, rows: capped, keepOrder: plan.order !== undefined, ...(d2 ? { color: names[1] ?? '' } : {}) } };
}

/**
 * Runs the plan as Analyze steps: "Query <files>" (CODE + TABLE), then "Draw a chart" (IMAGE) when
 * one helps. Returns the finding for the Respond group.
 */
export async function runPlan(plan: Exclude<Plan, { kind: 'overview' }>, ex: Executor, writer: AnswerWriter, among: readonly TableMeta[] = []): Promise<PlanAnswer> {
  const title = describePlan(plan);
  const step = writer.step(`Compute the ${title}`);
  const { plan: counted, left } = withoutTotals(plan);
  let body: Body;
  try {
    body = await runBody(counted, ex, title.charAt(0).toUpperCase() + title.slice(1));
  } catch (err) {
    step.fail();
    throw err;
  }
  writer.code(step, sqlBlock(shownPreamble(body.tables), ex.ran.map((r) => ({ comment: r.comment, sql: r.shown }))));
  const missing = askedButMissing(plan, body.main, among);
  if (missing !== undefined) {
    // "exports of Chile in 2031" where 2031 is empty: say so instead of showing a row of blanks.
    step.done();
    return { message: missing, tables: body.tables };
  }
  // Storing the table is disk I/O; drawing the chart is CPU: let them overlap.
  const stored = writer.table(step, fileNameFor(title, 'csv'), toCsv(body.main.columns, body.main.rows));
  const wantChart = body.chart !== undefined && plan.chart !== 'none' ? body.chart : undefined;
  const svg = wantChart ? renderChart(wantChart).catch(() => undefined) : Promise.resolve(undefined);
  await stored;
  step.done();
  if (wantChart !== undefined) {
    const chartStep = writer.step(`Draw a ${wantChart.kind === 'scatter' ? 'scatter plot' : wantChart.kind === 'histogram' ? 'histogram' : `${wantChart.kind} chart`} of the result`);
    const drawn = await svg;
    // A chart that cannot be drawn must not cost the answer: the table and finding still stand.
    if (drawn === undefined) chartStep.fail();
    else {
      await writer.image(chartStep, fileNameFor(`${title} chart`, 'svg'), drawn);
      chartStep.done();
    }
  }
  const note = totalsNote(left);
  return { message: `${withReading(plan, body.main, among)}${note ? `\n\n${note}` : ''}`, tables: body.tables };
}

/** For a lookup whose asked-for columns are empty in every matching row: what to say instead of a table. */
function askedButMissing(plan: Exclude<Plan, { kind: 'overview' }>, r: ResultData, among: readonly TableMeta[]): string | undefined {
  if (plan.kind !== 'rows' || plan.show === undefined || plan.show.length === 0 || r.rows.length === 0) return undefined;
  const idx = plan.show.map((c) => r.columns.indexOf(c.column.name)).filter((i) => i >= 0);
  if (idx.length === 0 || !r.rows.every((row) => idx.every((i) => row[i] === null || row[i] === undefined || row[i] === ''))) return undefined;
  const names = plan.show.map((c) => code(c.column.name)).join(' and ');
  return `${readingSentence(plan, among)}: ${names} ${plan.show.length === 1 ? 'has' : 'have'} no value in the ${r.rows.length === 1 ? 'matching row' : `${r.rows.length} matching rows`}, so there is no number to give.`;
}

/** The reading first, then the finding (whose own headline is dropped when the reading line already gives the number). */
function withReading(plan: Exclude<Plan, { kind: 'overview' }>, r: ResultData, among: readonly TableMeta[]): string {
  const line = readingLine(plan, r, among);
  const text = finding(plan, r);
  const scalar = plan.kind === 'aggregate' && plan.dims.length === 0 && plan.measures.length === 1 && !plan.shareOfFiltered && r.rows.length === 1 && r.rows[0]?.[0] !== null;
  const rest = scalar ? text.split('\n').slice(1).join('\n').trim() : text;
  return rest.length > 0 ? `${line}\n\n${rest}` : line;
}
