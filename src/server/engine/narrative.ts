/**
 * The finding in words. Every number printed comes from the query result handed in; this module
 * only picks what to say: a one-line headline first (the CLI and tests read it), then detail.
 */
import { columnStyle, formatNumber, formatPercent } from '../../shared/numberFormat';
import { plural } from '../profile/profileSummary';
import { code, describePlan, filterPhrase, fmtLabel, fmtValue, grainWords, isCyclic, md, measurePhrase, rowNoun, timeLabel } from './describe';
import { isScope, tieCap } from './sqlBuilder';
import { entityNote, missingCodeNote } from './numberShapes';
import { longNote } from './wideTables';
import type { Plan } from './types';

export interface ResultData {
  columns: string[];
  rows: unknown[][];
  truncated: boolean;
  /** Extra figures some plans compute in a second statement (rows: matching count; duplicates: summary). */
  extra?: unknown[];
}

const n = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN);
const pct = formatPercent;
/** Rows listed in the message before "and N more". */
const LIST = 10;

function strength(r: number): string {
  const a = Math.abs(r);
  const s = a >= 0.8 ? 'very strong' : a >= 0.6 ? 'strong' : a >= 0.4 ? 'moderate' : a >= 0.2 ? 'weak' : 'no meaningful';
  return a < 0.2 ? s : `${s} ${r > 0 ? 'positive' : 'negative'}`;
}

function convertedNote(plan: Plan): string {
  const cols = plan.kind === 'aggregate' ? plan.measures.flatMap((m) => (m.col?.column.converted ? [m.col.column] : [])) : [];
  if (cols.length === 0) return '';
  return `\n\n_Note: ${cols.map((c) => code(c.name)).join(', ')} ${cols.length === 1 ? 'is' : 'are'} stored as text; values that are not ${cols[0]?.kind === 'temporal' ? 'dates' : 'numbers'} were left out._`;
}

/** How a result row's groups are named in the text ("North / 2024-03"). */
function groupLabel(plan: Extract<Plan, { kind: 'aggregate' }>): (row: unknown[]) => string {
  return (row) => plan.dims.map((d, i) => md(d.grain !== undefined ? timeLabel(row[i], d.grain) : fmtLabel(row[i]))).join(' / ');
}

/** A share inside each group: the highest and lowest groups, then every group's share and counts. */
function groupShareFinding(plan: Extract<Plan, { kind: 'aggregate' }>, r: ResultData, noun: string): string {
  const k = plan.dims.length;
  const cond = plan.filters.filter((f, i) => !isScope(f, i, plan)).map((f) => md(filterPhrase(f))).join(' and ');
  const label = groupLabel(plan);
  const rows = r.rows.filter((row) => Number.isFinite(n(row[k + 2])));
  if (rows.length === 0) return `No group has ${noun} to take a share of.`;
  const ranked = [...rows].sort((a, b) => n(b[k + 2]) - n(a[k + 2]));
  const hi = ranked[0] as unknown[];
  const lo = ranked[ranked.length - 1] as unknown[];
  const lead = `Within each group, the share of ${noun} where ${cond} is highest in **${label(hi)}** (${pct(n(hi[k + 2]))}) and lowest in **${label(lo)}** (${pct(n(lo[k + 2]))}); ${r.truncated ? 'at least ' : ''}${formatNumber(rows.length)} groups in all.`;
  const lines = rows.slice(0, 12).map((row) => `- ${label(row)}: ${pct(n(row[k + 2]))} (${fmtValue(row[k])} of ${fmtValue(row[k + 1])})`);
  return [lead, ...lines].join('\n');
}

function aggregateFinding(plan: Extract<Plan, { kind: 'aggregate' }>, r: ResultData): string {
  const noun = rowNoun(plan.base.label);
  const first = plan.measures[0] ?? { agg: 'count' as const };
  const what = measurePhrase(first, noun, code);
  const dimCount = plan.dims.length;
  if (plan.shareOfFiltered && dimCount > 0) return groupShareFinding(plan, r, noun);
  if (plan.shareOfFiltered) {
    const row = r.rows[0] ?? [];
    const share = n(row[2]);
    const cond = plan.filters.filter((f, i) => !isScope(f, i, plan)).map((f) => md(filterPhrase(f))).join(' and ');
    const scope = plan.filters.filter((f, i) => isScope(f, i, plan)).map((f) => md(filterPhrase(f))).join(' and ');
    const shareText = `**${Number.isFinite(share) ? pct(share) : 'n/a'}**`;
    const lead = first.agg === 'count' || first.col === undefined
      ? `${shareText} of ${noun} (${fmtValue(row[0])} of ${fmtValue(row[1])}) have ${cond}`
      : `${shareText} of the ${what} (${fmtValue(row[0])} of ${fmtValue(row[1])}) comes from rows where ${cond}`;
    return `${lead}${scope ? `, among rows where ${scope}` : ''}.`;
  }
  if (dimCount === 0) {
    const row = r.rows[0] ?? [];
    if (plan.measures.every((_m, i) => row[i] === null || row[i] === undefined)) {
      // Nothing to aggregate: say so, with the date range the data covers when a date filter is the cause.
      const dates = plan.filters.find((f) => f.kind === 'dateRange' || f.kind === 'datePart');
      const range = dates && typeof dates.col.column.min === 'string' ? ` (${code(dates.col.column.name)} runs from ${dates.col.column.min.slice(0, 10)} to ${String(dates.col.column.max).slice(0, 10)})` : '';
      return `No rows match ${plan.filters.map((f) => md(filterPhrase(f))).join(' and ') || 'the question'}${range}, so there is no ${what} to report.`;
    }
    const parts = plan.measures.map((m, i) => `the ${measurePhrase(m, noun, code)} is **${fmtValue(row[i], columnStyle(r.columns[i] ?? '', [n(row[i])]))}**`);
    const scope = plan.filters.length > 0 ? ` where ${plan.filters.map((f) => md(filterPhrase(f))).join(' and ')}` : '';
    const text = parts.join(', and ');
    return `${text.charAt(0).toUpperCase()}${text.slice(1)}${scope}.`;
  }
  if (r.rows.length === 0) return `No rows match: ${md(describePlan(plan))}.`;
  const mi = dimCount;
  // Each measure as the table shows its column: one rule for prose and tables (src/shared/numberFormat.ts).
  const styles = plan.measures.map((_m, i) => columnStyle(r.columns[mi + i] ?? '', r.rows.map((row) => n(row[mi + i]))));
  const fmtM = (v: unknown): string => fmtValue(v, styles[0]);
  const label = groupLabel(plan);
  // The real number of groups when only part of them is shown (top N, capped): never the rows shown.
  const counted = n(r.extra?.[0]);
  const groupCount = Number.isFinite(counted) ? counted : r.rows.length;
  const lines: string[] = [];
  // (A ranking of periods, "the warmest year", is told as a ranking, not as a series.)
  const isTime = plan.dims[0]?.grain !== undefined && dimCount === 1 && plan.order === undefined;
  // Rows with no value for a group (undated rows, an empty borough) are no period and no group:
  // never named the highest, the lowest, the first or the last one.
  const placed = (row: unknown[]): boolean => plan.dims.every((_d, k) => row[k] !== null && row[k] !== undefined);
  if (isTime) {
    const vals = r.rows.map((row) => (placed(row) ? n(row[mi]) : NaN));
    const finite = vals.filter(Number.isFinite);
    const hi = r.rows[vals.indexOf(Math.max(...finite))];
    const lo = r.rows[vals.indexOf(Math.min(...finite))];
    const known = r.rows.filter(placed);
    const firstV = n(known[0]?.[mi]);
    const lastV = n(known[known.length - 1]?.[mi]);
    const grain = plan.dims[0]?.grain;
    const cyclic = isCyclic(grain);
    const unit = grain !== undefined ? grainWords(grain) : 'period';
    const change = !cyclic && Number.isFinite(firstV) && Number.isFinite(lastV) && firstV !== 0 ? ` The last ${unit} is ${pct(Math.abs((lastV - firstV) / firstV) * 100)} ${lastV >= firstV ? 'above' : 'below'} the first.` : '';
    const span = cyclic ? '' : ` ran from ${label(known[0] ?? [])} to ${label(known[known.length - 1] ?? [])}`;
    lines.push(`The ${what} per ${unit}${span}: highest in **${hi ? label(hi) : '?'}** (${fmtM(hi?.[mi])}), lowest in ${lo ? label(lo) : '?'} (${fmtM(lo?.[mi])}).${change}`);
  } else if (plan.dims.some((d) => d.grain !== undefined) && plan.order === undefined) {
    // Time by category: rows are in time order, so find the extremes instead of reading the first row.
    const vals = r.rows.map((row) => n(row[mi]));
    const finite = vals.filter(Number.isFinite);
    const hi = r.rows[vals.indexOf(Math.max(...finite))];
    const lo = r.rows[vals.indexOf(Math.min(...finite))];
    lines.push(`The ${what} over ${plural(groupCount, 'combination')} is highest for **${hi ? label(hi) : '?'}** (${fmtM(hi?.[mi])}) and lowest for ${lo ? label(lo) : '?'} (${fmtM(lo?.[mi])}).`);
  } else {
    // Ranked from the values themselves, never from row order: the result may be unordered (no
    // "highest" in the question) and a reader takes "followed by" as a ranking.
    const dir = plan.order === 'asc' ? 'lowest' : 'highest';
    const ranked = r.rows.map((row, i) => ({ row, v: n(row[mi]), i }))
      .sort((a, b) => Number(placed(b.row)) - Number(placed(a.row)) || (Number.isFinite(b.v) ? 1 : 0) - (Number.isFinite(a.v) ? 1 : 0) || (dir === 'lowest' ? a.v - b.v : b.v - a.v) || a.i - b.i)
      .map((x) => x.row);
    const unplaced = ranked.find((row) => !placed(row));
    if (unplaced !== undefined && ranked.length > 1) ranked.splice(ranked.indexOf(unplaced), 1);
    const top = ranked[0] ?? [];
    const share = plan.share ? `, ${pct(n(top[top.length - 1]))} of the total` : '';
    const dimName = plan.dims.map((d) => d.col.column.name).join(' / ');
    const tied = ranked.filter((row) => Number.isFinite(n(row[mi])) && n(row[mi]) === n(top[mi]));
    if (!r.truncated && tied.length === r.rows.length && r.rows.length > 1 && first.agg === 'count' && first.col === undefined && plan.dims.length === 1) {
      // "biggest city in 1950" over one row per city: counting rows tells the groups apart by nothing.
      const many = `${plan.limit === undefined ? `**${formatNumber(r.rows.length)}**` : formatNumber(r.rows.length)} ${code(dimName)} values`;
      lines.push(`Each of the ${many} has the same number of ${noun} (${fmtM(top[mi])})${plan.limit !== undefined ? ', so counting rows ranks nothing: say which number to rank them by' : ''}.`);
    } else if (plan.limit !== undefined && tied.length > 1 && tied.length > plan.limit - 1) {
      lines.push(`${tied.slice(0, 5).map((row) => `**${label(row)}**`).join(', ')} tie for the ${dir} ${what}: **${fmtM(top[mi])}**${tied.length > 5 ? ` (${tied.length} in all)` : ''}.`);
    } else if (ranked.length === 1) lines.push(`**${label(top)}** has the ${dir} ${what}: **${fmtM(top[mi])}**${share ? ` (${share.slice(2)})` : ''}.`);
    else {
      const rest = ranked.slice(tied.length, tied.length + 2).map((row) => `${label(row)} (${fmtM(row[mi])})`).join(' and ');
      const lead = tied.length > 1
        ? `${tied.slice(0, 5).map((row) => `**${label(row)}**`).join(' and ')} tie for the ${dir} ${what} (${fmtM(top[mi])})`
        : `**${label(top)}** has the ${dir} ${what} (${fmtM(top[mi])}${share})`;
      lines.push(`${lead}${rest ? `, followed by ${rest}` : ''}; ${plural(groupCount, dimName.length > 0 ? 'group' : 'row')} in all.`);
    }
    if (unplaced !== undefined && ranked.length > 0 && ranked[0] !== unplaced) lines.push(`Rows with no ${code(dimName)}: ${fmtValue(unplaced[mi])} (not ranked).`);
  }
  const contrast = plan.contrast !== undefined ? contrastLine(plan.contrast, r.rows, mi, what) : undefined;
  if (contrast !== undefined) lines.unshift(contrast, '');
  if (r.rows.length > 1) {
    lines.push('');
    for (const row of r.rows.slice(0, LIST)) {
      const extra = plan.share ? ` (${pct(n(row[row.length - 1]))})` : '';
      lines.push(`- ${label(row)}: ${plan.measures.map((_m, i) => fmtValue(row[mi + i], styles[i])).join(', ')}${extra}`);
    }
    if (r.rows.length > LIST) lines.push(`- … and ${formatNumber(r.rows.length - LIST)} more in the table`);
  }
  if (r.truncated) lines.push('', `_The result was capped at ${formatNumber(r.rows.length)} rows${groupCount > r.rows.length ? ` of ${formatNumber(groupCount)} groups` : ''}._`);
  return lines.join('\n');
}

/** "The ratio of the total Area of Alaska (566,432) and Texas (262,134) is **2.16**", in the question's order. */
function contrastLine(c: { kind: 'ratio' | 'difference'; first: string; second: string }, rows: readonly unknown[][], mi: number, what: string): string | undefined {
  const find = (v: string): unknown[] | undefined => rows.find((row) => String(row[0]).toLowerCase() === v.toLowerCase());
  const a = find(c.first);
  const b = find(c.second);
  const x = n(a?.[mi]);
  const y = n(b?.[mi]);
  if (a === undefined || b === undefined || !Number.isFinite(x) || !Number.isFinite(y)) return undefined;
  const both = `${md(c.first)} (${fmtValue(x)}) and ${md(c.second)} (${fmtValue(y)})`;
  if (c.kind === 'ratio') return y === 0 ? undefined : `The ratio of the ${what} of ${both} is **${formatNumber(x / y)}**.`;
  const diff = x - y;
  const rel = y !== 0 ? ` (${pct(Math.abs(diff / y) * 100)} ${diff >= 0 ? 'more' : 'less'})` : '';
  return `The ${what} of ${md(c.first)} is **${fmtValue(Math.abs(diff))}** ${diff >= 0 ? 'higher' : 'lower'} than ${md(c.second)}${rel}: ${both}.`;
}

/** The Markdown finding for a plan and its result. */
export function finding(plan: Plan, r: ResultData): string {
  switch (plan.kind) {
    case 'aggregate':
      return aggregateFinding(plan, r) + convertedNote(plan)
        + missingCodeNote([...plan.measures.flatMap((m) => (m.col ? [m.col.column] : [])), ...plan.dims.map((d) => d.col.column), ...plan.filters.map((f) => f.col.column)])
        + entityNote(plan.measures.flatMap((m) => (m.col !== undefined && (m.agg === 'sum' || m.agg === 'avg' || m.agg === 'median') ? [m.col.column] : [])))
        + (plan.base.long !== undefined ? `\n\n_Note: ${longNote(plan.base.label, plan.base.long)}_` : '');
    case 'rows': {
      const total = n(r.extra?.[0]);
      const shown = r.rows.length;
      if (shown === 0) return `No rows of ${md(plan.table.label)} match: ${md(describePlan(plan))}.`;
      const by = plan.orderBy ? plan.orderBy.col.column.name : undefined;
      const idx = by !== undefined ? r.columns.indexOf(by) : -1;
      if (idx >= 0 && plan.orderBy) {
        const dir = plan.orderBy.dir === 'asc' ? 'lowest' : 'highest';
        const byStyle = columnStyle(by ?? '', r.rows.map((row) => n(row[idx])));
        const firstV = fmtValue(r.rows[0]?.[idx], byStyle);
        const of = Number.isFinite(total) ? ` of ${plural(total, 'row')}` : '';
        // The ties were cut at the cap: how many rows share the extreme is not known, only "at least".
        if (plan.limit !== undefined && shown >= tieCap(plan.limit) && fmtValue(r.rows[shown - 1]?.[idx], byStyle) === firstV) {
          return `At least ${formatNumber(shown)} rows${of} share the ${dir} ${code(by ?? '')} (**${firstV}**); the table shows ${formatNumber(shown)} of them.`;
        }
        return shown === 1
          ? `The row with the ${dir} ${code(by ?? '')} (**${firstV}**) is in the table${of ? `, out of ${plural(total, 'row')}` : ''}.`
          : `The ${formatNumber(shown)} rows with the ${dir} ${code(by ?? '')}${of} are in the table: from **${firstV}** to ${fmtValue(r.rows[shown - 1]?.[idx], byStyle)}.`;
      }
      return Number.isFinite(total) && total > shown
        ? `**${formatNumber(total)}** rows match; the table shows the first ${formatNumber(shown)}.`
        : `**${formatNumber(shown)}** ${shown === 1 ? 'row matches' : 'rows match'}; all are in the table.`;
    }
    case 'histogram': {
      const counts = r.rows.map((row) => n(row[2]));
      const total = counts.reduce((a, b) => a + (Number.isFinite(b) ? b : 0), 0);
      const peak = r.rows[counts.indexOf(Math.max(...counts))];
      const lo = r.rows[0]?.[0];
      const hi = r.rows[r.rows.length - 1]?.[1];
      if (!peak || total === 0) return `${code(plan.col.column.name)} has no values to show${plan.filters.length ? ' under these conditions' : ''}.`;
      return `${code(plan.col.column.name)} ranges over ${fmtValue(lo)} to ${fmtValue(hi)} across ${plural(total, 'value')}; the most common range is **${fmtValue(peak[0])} to ${fmtValue(peak[1])}** with ${formatNumber(n(peak[2]))} values (${pct((n(peak[2]) / total) * 100)}).${missingCodeNote([plan.col.column])}`;
    }
    case 'correlation': {
      const row = r.rows[0] ?? [];
      const cr = n(row[0]);
      if (!Number.isFinite(cr)) return `The correlation between ${code(plan.x.column.name)} and ${code(plan.y.column.name)} cannot be computed (too few pairs or no variation).`;
      return `**r = ${cr.toFixed(2)}**: ${strength(cr)} correlation between ${code(plan.x.column.name)} and ${code(plan.y.column.name)} over ${plural(n(row[2]), 'pair')} of values${Number.isFinite(n(row[1])) ? `; each unit of ${code(plan.x.column.name)} goes with ${formatNumber(n(row[1]))} of ${code(plan.y.column.name)} on average` : ''}. Correlation alone does not show cause.${missingCodeNote([plan.x.column, plan.y.column])}`;
    }
    case 'correlationScan': {
      const best = r.rows[0];
      if (!best || !Number.isFinite(n(best[1]))) return `No correlation with ${code(plan.target.column.name)} could be computed.`;
      const rest = r.rows.slice(1, 4).filter((row) => Number.isFinite(n(row[1]))).map((row) => `${code(String(row[0]))} (r = ${n(row[1]).toFixed(2)})`);
      return `${code(plan.target.column.name)} correlates most with **${code(String(best[0]))}** (r = ${n(best[1]).toFixed(2)}, ${strength(n(best[1]))})${rest.length ? `, then ${rest.join(', ')}` : ''}.`;
    }
    case 'missing': {
      if (plan.col) {
        const row = r.rows[0] ?? [];
        const unreadable = row.length > 3 && n(row[3]) > 0 ? ` Another ${formatNumber(n(row[3]))} values are not numbers and count as missing in calculations.` : '';
        return `**${formatNumber(n(row[1]))}** of ${formatNumber(n(row[0]))} rows (${pct(n(row[2]))}) have no ${code(plan.col.column.name)}.${unreadable}`;
      }
      const gaps = r.rows.filter((row) => n(row[1]) > 0);
      if (gaps.length === 0) return `No column of ${md(plan.table.label)} has missing values.`;
      const list = gaps.slice(0, LIST).map((row) => `- ${code(String(row[0]))}: ${formatNumber(n(row[1]))} (${pct(n(row[2]))})`);
      return [`**${gaps.length}** of ${plural(r.rows.length, 'column')} have missing values; the most: **${code(String(gaps[0]?.[0]))}** with ${formatNumber(n(gaps[0]?.[1]))} (${pct(n(gaps[0]?.[2]))}).`, '', ...list].join('\n');
    }
    case 'duplicates': {
      const e = r.extra ?? [];
      if (plan.cols.length === 0) {
        const d = n(e[1]);
        return d === 0 ? `No row of ${md(plan.table.label)} repeats another exactly (${plural(n(e[0]), 'row')}).` : `**${formatNumber(d)}** ${d === 1 ? 'row repeats' : 'rows repeat'} an earlier row exactly (of ${plural(n(e[0]), 'row')}).`;
      }
      const dv = n(e[0]);
      const names = plan.cols.map((c) => code(c.column.name)).join(', ');
      if (!(dv > 0)) return `Every ${names} value occurs once: no duplicates.`;
      const top = r.rows[0] ?? [];
      return `**${formatNumber(dv)}** ${names} ${dv === 1 ? 'value occurs' : 'values occur'} more than once (${plural(n(e[1]), 'extra row')}); the most repeated is ${md(fmtValue(top[0]))} (${formatNumber(n(top[top.length - 1]))} times).`;
    }
    case 'outliers': {
      const withOut = r.rows.filter((row) => n(row[5]) > 0);
      if (withOut.length === 0) return `No outliers: every value lies within 1.5 × IQR of the quartiles.`;
      const lines = withOut.slice(0, LIST).map((row) => `- ${code(String(row[0]))}: ${formatNumber(n(row[5]))} outliers outside ${fmtValue(row[3])} to ${fmtValue(row[4])} (values run ${fmtValue(row[7])} to ${fmtValue(row[8])})`);
      return [`**${code(String(withOut[0]?.[0]))}** has ${formatNumber(n(withOut[0]?.[5]))} outliers (values below ${fmtValue(withOut[0]?.[3])} or above ${fmtValue(withOut[0]?.[4])}).`, '', ...lines].join('\n');
    }
    case 'overview':
      return '';
  }
}
