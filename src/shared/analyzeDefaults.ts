/** What Analyze This File does by default, shared by the extension and the benchmarks that time it. */

/** The question Analyze This File pre-fills. */
export const DEFAULT_QUESTION = 'Give me an overview of this data';

/**
 * How often the extension asks the local service about a file being read: it answers in about a
 * millisecond, so the first asks come quickly (a small file is ready within a few tenths of a
 * second, and a steady quarter second would add up to that again) and slow down by half each time
 * to a quarter second, which shows a long read's progress smoothly.
 */
export const LOCAL_POLL = { intervalMs: 20, maxIntervalMs: 250 } as const;

/** The dataset "Analyze the Sample Sales Data" offers: named for what it is, not its folder ("samples"). */
export const SAMPLE_DATASET = { name: 'Sample sales data', reason: 'the sample data that ships with the extension' } as const;

/** Whether `path` is one of the samples that ship in the extension (`<extension>/samples/…`). */
export function isShippedSample(path: string, extensionPath: string): boolean {
  const root = `${extensionPath.replace(/[\\/]+$/, '')}/samples/`;
  return path.replace(/\\/g, '/').startsWith(root.replace(/\\/g, '/'));
}
