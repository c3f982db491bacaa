/**
 * Pinned rows brought back (issue 27): a tab keeps the indices of the rows pinned at the top with
 * the query they are indices under (explorerMemory.ts); on reopening, each row's current values
 * are fetched again from the service by its index under that query — the file may have changed,
 * so stored values are never shown — and an index past the end of the view is dropped.
 */
import type { ExploreClient } from '../../api/exploreClient';
import { EXPLORE_LIMITS, type ExploreQuery } from '../../shared/explore';
import { isExplorerPinnedRow } from '../../shared/explorerGuards';
import type { ExplorerPinnedRow } from '../../shared/explorerProtocol';

/** Runs of consecutive indices (ascending, each at most a page long): one rows request each. */
export function indexRuns(indices: readonly number[], maxRun: number = EXPLORE_LIMITS.pageRows): Array<{ offset: number; limit: number }> {
  const sorted = [...new Set(indices)].filter((i) => Number.isInteger(i) && i >= 0).sort((a, b) => a - b);
  const runs: Array<{ offset: number; limit: number }> = [];
  for (const i of sorted) {
    const last = runs[runs.length - 1];
    if (last && last.offset + last.limit === i && last.limit < maxRun) last.limit++;
    else runs.push({ offset: i, limit: 1 });
  }
  return runs;
}

/**
 * The rows at `indices` of the view under `query`, in the order of `indices`; indices past the
 * end of the view (the file shrank, or its filter matches fewer rows now) are left out.
 */
export async function fetchPinnedRows(c: Pick<ExploreClient, 'rows'>, viewId: string, query: ExploreQuery, indices: readonly number[], signal?: AbortSignal): Promise<ExplorerPinnedRow[]> {
  const found = new Map<number, ExplorerPinnedRow>();
  for (const run of indexRuns(indices)) {
    const page = await c.rows(viewId, run.offset, run.limit, query, signal ? { signal } : {});
    page.rows.slice(0, run.limit).forEach((values, k) => {
      const row = { index: page.offset + k, values };
      if (isExplorerPinnedRow(row)) found.set(row.index, row);
    });
  }
  return [...new Set(indices)].flatMap((i) => {
    const row = found.get(i);
    return row ? [row] : [];
  });
}
