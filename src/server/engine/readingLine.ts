/**
 * The first line of every answer: how the question was read, written by the grammar's writer with
 * the columns in backticks, so a misreading is visible before any number and the line itself can
 * be asked again ("Total `revenue` where `region` is "Europe": **32,985.92**").
 */
import { columnStyle } from '../../shared/numberFormat';
import { describePlan, fmtValue } from './describe';
import type { ResultData } from './narrative';
import type { Plan, TableMeta } from './types';
import { writePlan } from './writer';

/** The reading in words, without the result. */
export function readingSentence(plan: Plan, among: readonly TableMeta[] = []): string {
  const s = writePlan(plan, among) ?? describePlan(plan);
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The first line: the reading, with the number when the answer is one number. */
export function readingLine(plan: Plan, r: ResultData, among: readonly TableMeta[] = []): string {
  const s = readingSentence(plan, among);
  if (plan.kind === 'aggregate' && plan.dims.length === 0 && !plan.shareOfFiltered && plan.measures.length === 1 && r.rows.length === 1) {
    const v = r.rows[0]?.[0];
    return v === null || v === undefined ? `${s}: no rows match, so there is no value.` : `${s}: **${fmtValue(v, columnStyle(r.columns[0] ?? '', [Number(v)]))}**`;
  }
  if (plan.kind === 'correlation') {
    const v = r.rows[0]?.[0];
    return typeof v === 'number' ? `${s}: **r = ${v.toFixed(2)}**` : `${s}.`;
  }
  return `${s}:`;
}
