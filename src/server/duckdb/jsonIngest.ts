/**
 * JSON -> one DuckDB table via `read_json_auto`, read entirely by DuckDB. It accepts a top-level
 * array of objects, a single object, or newline-delimited JSON. Nested records are then flattened
 * into columns and JSON-typed fields typed from their values (`jsonShape.ts`), so questions can
 * name `name.common` or average a field that mixes numbers with "". An array of scalars becomes
 * one column named `json`, DuckDB's convention. JSON Lines (`.jsonl`, `.ndjson`) take the same path,
 * and gzip files (`.jsonl.gz`) are read by DuckDB as they are once gzipScan.ts has checked them.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { IngestError, type IngestResult, type TableOrigin } from '../engine';
import { replaceSource } from './catalog';
import { duckDbReason } from './fileKinds';
import { isEncodingError, prepareInput, transcodeLegacy, type PreparedInput } from './ingestInput';
import { scanGzip } from './gzipScan';
import { checkJsonDepth, jsonDepthGuard, type JsonLimits } from './jsonDepth';
import { flattenJsonTable } from './jsonShape';
import { LineSampler, sampling, textBytes, type RowGauge } from './rowGauge';
import { quoteIdent, quoteLiteral, tableNameFor } from './sqlText';

/**
 * DuckDB's default limit on one JSON value is 16 MB; a single-object file or a big element could
 * exceed it. 256 MB bounds memory while letting ordinary exports through.
 */
const MAX_OBJECT_BYTES = 256 * 1024 * 1024;

export interface JsonArgs {
  conn: DuckDBConnection;
  sourceId: string;
  filePath: string;
  fileName: string;
  /** The file is gzip-compressed (`.jsonl.gz`); DuckDB reads it as it is, after gzipScan.ts checked it. */
  gzip: boolean;
  /** Inflated bytes a gzip file may hold. */
  maxInflatedBytes: number;
  workDir: string;
  signal: AbortSignal;
  /** Told how to estimate the rows read so far (JSON Lines: one row per line), for the progress. */
  rows?: RowGauge;
}

/** JSON Lines files hold one record per line; other JSON may spread a record over many lines. */
const JSON_LINES = /\.(jsonl|ndjson)(\.gz)?$/i;

/** The named `read_json_auto` options (everything after the path). */
export function readJsonOptions(sampleAll: boolean, gzip = false): string[] {
  const opts = [`maximum_object_size = ${MAX_OBJECT_BYTES}`];
  if (gzip) opts.push(`compression = 'gzip'`);
  if (sampleAll) opts.push('sample_size = -1');
  return opts;
}

/** The `read_json_auto(...)` call. `sampleAll` sniffs types over the whole file (second attempt). */
export function readJsonCall(path: string, sampleAll: boolean, gzip = false): string {
  return `read_json_auto(${[quoteLiteral(path), ...readJsonOptions(sampleAll, gzip)].join(', ')})`;
}

function isConversionError(err: unknown): boolean {
  const m = err instanceof Error ? err.message : String(err);
  return /conversion error|could not convert|could not cast|failed to cast/i.test(m);
}

/** Ingests a JSON or NDJSON file into the source's table, replacing what the source had. */
export async function ingestJson(args: JsonArgs): Promise<IngestResult> {
  const { conn, sourceId, fileName, gzip, workDir, signal } = args;
  const sampler = new LineSampler();
  // In JSON Lines every top-level value is a record; elsewhere one may be the whole document.
  const limits: JsonLimits = { lines: JSON_LINES.test(fileName) };
  const scan = gzip ? await scanGzip(args.filePath, fileName, { maxBytes: args.maxInflatedBytes, signal, onChunk: sampling(jsonDepthGuard(fileName, undefined, limits), sampler) }) : undefined;
  if (scan === undefined) await checkJsonDepth(args.filePath, fileName, signal, undefined, sampler.observe, limits);
  const bytes = await textBytes(args.filePath, scan?.bytes);
  if (JSON_LINES.test(fileName) && bytes !== undefined) args.rows?.fromLines(sampler, bytes, 0);
  let input: PreparedInput = await prepareInput(args.filePath, fileName, 'JSON', workDir, signal, scan);
  const table = tableNameFor(sourceId);
  try {
    let sampleAll = false;
    for (;;) {
      try {
        return await replaceSource(conn, sourceId, signal, async () => {
          await conn.run(`CREATE TABLE ${quoteIdent(table)} AS SELECT * FROM ${readJsonCall(input.path, sampleAll, input.gzip)}`);
          const select = await flattenJsonTable(conn, table);
          // DuckDB's JSON reader takes UTF-8 only, so a transcoded file is not reproducible as-is.
          const origin: TableOrigin = { reader: 'read_json_auto', options: readJsonOptions(sampleAll, gzip), dateColumns: [] };
          if (select !== undefined) origin.select = select;
          if (input.transcoded) origin.approximate = true;
          return { kind: 'tables', tables: [{ table, origin }] };
        });
      } catch (err) {
        signal.throwIfAborted();
        if (isEncodingError(err) && !input.transcoded) {
          input = await transcodeLegacy(input, workDir, signal);
          continue;
        }
        // Types sniffed from the first records may not fit later ones: sniff the whole file once.
        if (isConversionError(err) && !sampleAll) {
          sampleAll = true;
          continue;
        }
        throw new IngestError(`could not read ${fileName} as JSON: ${duckDbReason(err, input.path, fileName)}`);
      }
    }
  } finally {
    await input.cleanup();
  }
}
