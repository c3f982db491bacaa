/**
 * Charts drawn by a charting library: a Vega-Lite spec compiled to Vega and rendered headless to
 * SVG (no browser, no canvas, no network: data is inlined). Bar for groups, line for time, binned
 * bars for distributions, points for correlations.
 */
import type * as Vega from 'vega';
import type { TopLevelSpec } from 'vega-lite';

export type ChartKind = 'bar' | 'line' | 'histogram' | 'scatter';

export interface ChartRequest {
  kind: ChartKind;
  title: string;
  /** Field names in `rows`. */
  x: string;
  y: string;
  /** Second grouping (colour), if any. */
  color?: string;
  /** Histogram bin end field. */
  x2?: string;
  /** How the x field reads: categories, dates, or numbers. */
  xType: 'nominal' | 'temporal' | 'quantitative' | 'ordinal';
  rows: Array<Record<string, unknown>>;
  /** Keep the given row order on a categorical axis (ranked answers). */
  keepOrder?: boolean;
  /** Axis title for x when the field name is technical (histogram bins). */
  xTitle?: string;
}

/** More categories than this make an unreadable chart; the table has them all. */
export const MAX_CATEGORIES = 30;
const WIDTH = 560;
const HEIGHT = 300;

function truncate(label: unknown): unknown {
  return typeof label === 'string' && label.length > 40 ? `${label.slice(0, 37)}...` : label;
}

/** The Vega-Lite spec of a chart (exported so tests can check encodings without parsing SVG). */
export function chartSpec(input: ChartRequest): TopLevelSpec {
  // Vega reads dots, brackets and quotes in field names as paths: plot fixed field names instead
  // and keep the user's column names as axis titles.
  const req: ChartRequest = { ...input, x: 'x', y: 'y', ...(input.color ? { color: 'c' } : {}), ...(input.x2 ? { x2: 'x2' } : {}) };
  const t = { x: input.x, y: input.y, c: input.color ?? '' };
  const many = req.kind === 'bar' && !req.color && req.rows.length > 8;
  const values = input.rows.map((r) => {
    const v: Record<string, unknown> = { x: input.xType === 'nominal' ? truncate(r[input.x] ?? '(missing)') : r[input.x], y: r[input.y] };
    if (input.color) v['c'] = r[input.color] ?? '(missing)';
    if (input.x2) v['x2'] = r[input.x2];
    return v;
  });
  const base = {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title: req.title.length > 90 ? `${req.title.slice(0, 87)}...` : req.title,
    width: WIDTH,
    height: many ? Math.min(20 * req.rows.length, 640) : HEIGHT,
    background: 'white',
    data: { values },
    config: { font: 'sans-serif', axis: { labelLimit: 180 } },
  };
  const yQ = { field: req.y, type: 'quantitative' as const, title: t.y };
  const color = req.color ? { color: { field: req.color, type: 'nominal' as const, title: t.c } } : {};
  switch (req.kind) {
    case 'line':
      return { ...base, mark: { type: 'line', point: req.rows.length <= 60 }, encoding: { x: { field: req.x, type: req.xType, title: t.x }, y: yQ, ...color } } as TopLevelSpec;
    case 'histogram':
      return {
        ...base, mark: 'bar',
        encoding: { x: { field: req.x, type: 'quantitative', bin: { binned: true }, title: req.xTitle ?? t.x }, x2: { field: req.x2 ?? req.x }, y: yQ },
      } as TopLevelSpec;
    case 'scatter':
      return { ...base, mark: { type: 'point', opacity: 0.6 }, encoding: { x: { field: req.x, type: 'quantitative', title: t.x, scale: { zero: false } }, y: { ...yQ, scale: { zero: false } } } } as TopLevelSpec;
    case 'bar': {
      // sort: null keeps the data's order (ranked answers arrive sorted by the measure).
      const longest = Math.max(0, ...values.map((v) => String(v[req.x] ?? '').length));
      const angle = req.rows.length <= 6 && longest <= 16 ? 0 : -40;
      const cat = { field: req.x, type: req.xType, title: t.x, axis: { labelAngle: angle }, ...(req.keepOrder ? { sort: null } : {}) };
      if (many) return { ...base, mark: 'bar', encoding: { y: { ...cat, axis: {} }, x: yQ, ...color } } as TopLevelSpec;
      return { ...base, mark: 'bar', encoding: { x: cat, y: yQ, ...color, ...(req.color ? { xOffset: { field: req.color } } : {}) } } as TopLevelSpec;
    }
  }
}

/** Name of the data set the compiled spec reads; values are inserted per render. */
const DATA = 'rows';
const CACHE_LIMIT = 32;

/**
 * A live view per chart shape. Compiling, parsing and even instantiating a view's dataflow cost
 * more than rendering, so a view is kept and only its data is swapped. Renders on one view are
 * queued: two answers drawing the same shape at once must not see each other's rows.
 */
interface CachedView {
  view: Vega.View;
  queue: Promise<unknown>;
}
const views = new Map<string, CachedView>();

interface Charting {
  vega: typeof Vega;
  compile: typeof import('vega-lite').compile;
}
let charting: Promise<Charting> | undefined;

/**
 * Vega and Vega-Lite take a few hundred milliseconds to load (they build colour schemes and
 * parsers at import), which every start of the service paid before it could list a dataset; now
 * the first chart pays it, once.
 */
function loadCharting(): Promise<Charting> {
  charting ??= Promise.all([import('vega'), import('vega-lite')]).then(([vega, vegaLite]) => ({ vega, compile: vegaLite.compile }));
  return charting;
}

function viewFor({ vega, compile }: Charting, spec: TopLevelSpec & { data: unknown }): CachedView {
  const shaped = { ...spec, data: { name: DATA } } as TopLevelSpec;
  const key = JSON.stringify(shaped);
  let hit = views.get(key);
  if (hit === undefined) {
    hit = { view: new vega.View(vega.parse(compile(shaped).spec), { renderer: 'none', logLevel: vega.Error }), queue: Promise.resolve() };
    if (views.size >= CACHE_LIMIT) {
      const oldest = views.keys().next().value as string;
      const evicted = views.get(oldest);
      views.delete(oldest);
      void evicted?.queue.finally(() => evicted.view.finalize());
    }
    views.set(key, hit);
  }
  return hit;
}

/** Loads Vega and draws one small bar chart, so that the next chart is drawn at full speed. Never rejects. */
export async function warmCharting(): Promise<void> {
  await renderChart({ kind: 'bar', title: 'warm', x: 'group', y: 'value', xType: 'nominal', rows: [{ group: 'a', value: 1 }] }).catch(() => undefined);
}

/** Renders a chart to SVG text. */
export async function renderChart(req: ChartRequest): Promise<string> {
  const spec = chartSpec(req) as TopLevelSpec & { data: { values: unknown[] } };
  // No await between the lookup and the queueing below: renders of one shape stay in order.
  const cached = viewFor(await loadCharting(), spec);
  const svg = cached.queue.then(async () => {
    cached.view.data(DATA, spec.data.values);
    return cached.view.toSVG();
  });
  cached.queue = svg.catch(() => undefined);
  return svg;
}
