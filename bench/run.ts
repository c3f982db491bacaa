/**
 * `npm run bench`: every benchmark, each printing ours vs a baseline measured in the same run.
 * Select some with `npm run bench -- fold upload`.
 */
import type { BenchResult } from './types';

type Suite = { name: string; run: () => Promise<BenchResult[]> };

// Loaded lazily (require, as the bench runs as CommonJS under tsx) so one suite can run alone
// without loading the others' heavy dependencies.
const suites: Suite[] = [
  { name: 'fold', run: () => (require('./foldBench') as typeof import('./foldBench')).runFoldBench() },
  { name: 'upload', run: () => (require('./uploadBench') as typeof import('./uploadBench')).runUploadBench() },
  { name: 'inplace', run: async () => [
    ...await (require('./inPlaceBench') as typeof import('./inPlaceBench')).runInPlaceBench(),
    ...await (require('./parquetInPlaceBench') as typeof import('./parquetInPlaceBench')).runParquetInPlaceBench(),
  ] },
  { name: 'bigquestions', run: () => (require('./inPlaceBench') as typeof import('./inPlaceBench')).runInPlaceBench() },
  { name: 'parquet', run: () => (require('./parquetInPlaceBench') as typeof import('./parquetInPlaceBench')).runParquetInPlaceBench() },
  { name: 'panel', run: () => (require('./panelBench') as typeof import('./panelBench')).runPanelBench() },
  { name: 'engine', run: async () => [
    ...await (require('./engineBench') as typeof import('./engineBench')).runEngineBench(),
    ...await (require('./understandBench') as typeof import('./understandBench')).runUnderstandBench(),
  ] },
  { name: 'history', run: () => (require('./historyBench') as typeof import('./historyBench')).runHistoryBench() },
  { name: 'shared', run: () => (require('./sharedBench') as typeof import('./sharedBench')).runSharedBench() },
  { name: 'model', run: () => (require('./modelBench') as typeof import('./modelBench')).runModelBench() },
  { name: 'explore', run: () => (require('./exploreBench') as typeof import('./exploreBench')).runExploreBench() },
  { name: 'explorewebview', run: () => (require('./exploreWebviewBench') as typeof import('./exploreWebviewBench')).runExploreWebviewBench() },
  { name: 'understand', run: () => (require('./understandBench') as typeof import('./understandBench')).runUnderstandBench() },
];

function fmt(n: number): string {
  return Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 1 ? n.toFixed(2) : n.toPrecision(3);
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const chosen = wanted.length > 0 ? suites.filter((s) => wanted.includes(s.name)) : suites;
  let failed = 0;
  for (const suite of chosen) {
    process.stdout.write(`\n== ${suite.name}\n`);
    for (const r of await suite.run()) {
      if (!r.pass) failed++;
      process.stdout.write(
        `${r.pass ? 'PASS' : 'MISS'}  ${r.name}: ours ${fmt(r.ours)} ${r.unit}, baseline ${fmt(r.baseline)} ${r.unit}, ratio ${fmt(r.ratio)}x (target ${r.target})${r.note ? ` — ${r.note}` : ''}\n`,
      );
    }
  }
  process.stdout.write(`\n${failed === 0 ? 'all benchmarks met their targets' : `${failed} benchmark(s) missed their target`}\n`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
