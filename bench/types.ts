/** One benchmark line: ours and a baseline measured side by side in the same run. */
export interface BenchResult {
  name: string;
  ours: number;
  baseline: number;
  /** The figure compared with the target (e.g. ours/baseline throughput). */
  ratio: number;
  unit: string;
  target: string;
  pass: boolean;
  note?: string;
}
