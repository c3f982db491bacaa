/**
 * What a language model may propose: a plan in the engine's own terms (the aggregates and time
 * buckets the grammar's writer has words for, the filters it can state), checked with zod. The
 * model names columns and values; the engine checks them against the data, compiles the SQL and
 * states the reading. Free SQL is a separate, labelled answer kind, used only when no plan fits.
 */
import { z } from 'zod';
import { AGG, GRAIN } from '../engine/writer';
import type { Agg, Grain } from '../engine/types';

const AGGS = Object.keys(AGG) as [Agg, ...Agg[]];
const GRAINS = Object.keys(GRAIN) as [Grain, ...Grain[]];

/** Names and values are short: anything longer is not a column of ours (or is an attack). */
const name = z.string().min(1).max(300);
const value = z.union([z.string().max(300), z.number().finite()]);

export const FILTER_OPS = ['is', 'is not', 'contains', 'does not contain', '=', '<>', '>', '>=', '<', '<=', 'between', 'dates', 'is missing', 'is not missing'] as const;

const filterSchema = z.object({
  column: name,
  op: z.enum(FILTER_OPS),
  /** `is`, `is not`, `contains`: the values; `between`: [low, high]; comparisons: one number. */
  values: z.array(value).max(50).optional(),
  /** `dates`: the first and the last day (ISO, inclusive); either may be absent. */
  from: z.string().max(40).optional(),
  to: z.string().max(40).optional(),
}).strict();

const planSchema = z.object({
  /** The table's name as listed (a file name, or `file, sheet`); may be absent with one table. */
  table: name.optional(),
  kind: z.enum(['aggregate', 'rows']),
  measures: z.array(z.object({ agg: z.enum(AGGS), column: name.optional() }).strict()).max(4).optional(),
  groupBy: z.array(z.object({ column: name, grain: z.enum(GRAINS).optional() }).strict()).max(3).optional(),
  filters: z.array(filterSchema).max(10).optional(),
  /** Rank the groups (aggregate) by the first measure. */
  order: z.enum(['desc', 'asc']).optional(),
  limit: z.number().int().min(1).max(1000).optional(),
  /** Each group's share of the total of the first measure. */
  share: z.boolean().optional(),
  /** `rows`: sort the rows by a column. */
  orderBy: z.object({ column: name, dir: z.enum(['desc', 'asc']) }).strict().optional(),
}).strict();

const bindingSchema = z.object({ word: z.string().min(1).max(80), column: name, value: z.string().max(300).optional() }).strict();

export const modelReplySchema = z.discriminatedUnion('answer', [
  z.object({ answer: z.literal('plan'), plan: planSchema, bindings: z.array(bindingSchema).max(10).optional() }).strict(),
  z.object({ answer: z.literal('sql'), sql: z.string().min(1).max(20_000) }).strict(),
  z.object({ answer: z.literal('refuse'), reason: z.string().max(500).optional() }).strict(),
]);

export type ModelReply = z.infer<typeof modelReplySchema>;
export type ModelPlan = z.infer<typeof planSchema>;
export type ModelFilter = z.infer<typeof filterSchema>;
export type ModelBinding = z.infer<typeof bindingSchema>;

/** The reply format, for the prompt, spelled from the same enums the schema checks. */
export function replyFormat(): string {
  return [
    'Reply with one JSON object and nothing else, in one of three forms:',
    '1. {"answer":"plan","plan":{...},"bindings":[...]} when the question fits a plan:',
    '   "table": the table name as listed (optional with one table);',
    '   "kind": "aggregate" (numbers computed over rows) or "rows" (list rows);',
    `   "measures": [{"agg": one of ${AGGS.map((a) => JSON.stringify(a)).join(', ')}, "column": a column name (omit for "count" of rows)}];`,
    `   "groupBy": [{"column": a column name, "grain": for a date column, one of ${GRAINS.map((g) => JSON.stringify(g)).join(', ')}}];`,
    `   "filters": [{"column": a column name, "op": one of ${FILTER_OPS.map((o) => JSON.stringify(o)).join(', ')}, "values": [...], "from": "YYYY-MM-DD", "to": "YYYY-MM-DD"}]`,
    '     ("is"/"is not"/"contains" take values as written in the data; "between" takes [low, high]; comparisons take one number; "dates" takes from and to, both inclusive);',
    '   "order": "desc" or "asc" with "limit" to rank groups by the first measure ("which region has the highest revenue": order desc, limit 1);',
    '   "share": true for each group\'s percentage of the total; "orderBy": {"column", "dir"} to sort listed rows.',
    '   "bindings": for each word of the question that names a column or a value under another name, {"word": the word as written, "column": the column, "value": the value if it is one}.',
    '2. {"answer":"sql","sql":"<one DuckDB SELECT>"} only when no plan of this form can answer the question.',
    '3. {"answer":"refuse","reason":"..."} when the data cannot answer it.',
  ].join('\n');
}
