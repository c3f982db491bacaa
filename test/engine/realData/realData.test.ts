/**
 * The real-data suite: real public data sets (fetched from Debian's and npm's packages into a
 * cache outside the repository, see sources.ts), questions written the way people type them, each
 * with its expected answer computed independently here. Every answer is right, wrong (a TABLE
 * that does not hold the expected answer, or a number where the question cannot be answered) or
 * refused (no number). Prints `right / wrong / refused` with a breakdown; the target is at least
 * 95% right and no wrong answer at all.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startRig, type Collected, type EngineRig } from '../engineHarness';
import { fetchRealData } from './fetch';
import { judge, type Outcome, type RealCase } from './realExpect';
import { RealFiles } from './realFiles';
import { ALL_DATA_SETS } from './sources';
import { autosCases } from './casesAutos';
import { peopleCases } from './casesPeople';
import { seriesCases } from './casesSeries';
import { stateCases } from './casesStates';
import { validationACases } from './casesValidationA';
import { validationBCases } from './casesValidationB';

const RIGHT_TARGET = 0.95;
const MIN_CASES = 150;

/** Every case module, each over its own files. */
const MODULES: Array<(f: RealFiles) => RealCase[]> = [autosCases, peopleCases, seriesCases, stateCases, validationACases, validationBCases];

// Both ways the local service reads a table: loaded into DuckDB (uploads), and read where it is
// through a view (workspace CSV, TSV and Parquet files): the same answers either way.
for (const inPlace of [false, true]) describe(`local engine on real data (right / wrong / refused)${inPlace ? ', files read in place' : ''}`, function () {
  this.timeout(600_000);
  let rig: EngineRig;
  let cases: RealCase[];

  before(async () => {
    const dir = await fetchRealData((l) => process.stdout.write(`      ${l}\n`));
    const files = new RealFiles(dir);
    const only = process.env['REAL_CASES'];
    cases = MODULES.flatMap((m) => m(files)).filter((c) => only === undefined || c.files.some((f) => only.split(',').includes(f)));
    const used = new Set(cases.flatMap((c) => c.files));
    const contents: Record<string, Buffer> = {};
    for (const s of ALL_DATA_SETS) if (used.has(s.file)) contents[s.file] = readFileSync(join(dir, s.file));
    rig = await startRig(contents, { llm: null }, { inPlace });
  });
  after(async () => rig?.close());

  it(`answers at least ${RIGHT_TARGET * 100}% right and never wrong, stating its reading first`, async () => {
    const outcomes: Array<{ c: RealCase; o: Outcome; a?: Collected }> = [];
    for (const c of cases) {
      try {
        const a = await rig.ask(c.q, c.files, c.history ? { history: c.history } : {});
        outcomes.push({ c, o: judge(a, c.expect), a });
      } catch (err) {
        outcomes.push({ c, o: { kind: 'wrong', why: `threw ${err instanceof Error ? err.message : String(err)}` } });
      }
    }
    const count = (k: Outcome['kind'], list = outcomes): number => list.filter((x) => x.o.kind === k).length;
    const right = count('right');
    const wrong = count('wrong');
    const refused = count('refused');
    const files = new Set(cases.flatMap((c) => c.files));
    const out = (s: string): boolean => process.stdout.write(`      ${s}\n`);
    out('');
    out(`real data: ${right} right / ${wrong} wrong / ${refused} refused of ${cases.length} questions on ${files.size} files (${((right / cases.length) * 100).toFixed(1)}% right; target >= ${RIGHT_TARGET * 100}% right, 0 wrong)`);
    for (const tag of [...new Set(cases.map((c) => c.tag))].sort()) {
      const list = outcomes.filter((x) => x.c.tag === tag);
      out(`  ${tag.padEnd(12)} ${count('right', list)} right / ${count('wrong', list)} wrong / ${count('refused', list)} refused`);
    }
    const prefix = (c: RealCase): string => `${c.files.join('+')}: ${c.history ? `[after "${c.history.join('" / "')}"] ` : ''}${c.q}`;
    for (const x of outcomes) if (x.o.kind === 'wrong') out(`WRONG   ${prefix(x.c)} -> ${x.o.why}`);
    for (const x of outcomes) if (x.o.kind === 'refused') out(`REFUSED ${prefix(x.c)} -> ${x.o.why}`);
    // The first line of every answer with a table says how the question was read, naming what it used.
    const unstated = outcomes.filter((x) => x.a !== undefined && x.a.tables.length > 0 && !/`[^`]+`/.test(x.a.message.split('\n')[0] ?? ''));
    for (const x of unstated) out(`NO READING FIRST ${prefix(x.c)} -> ${x.a?.message.split('\n')[0]?.slice(0, 120)}`);

    if (process.env['REAL_CASES'] === undefined) {
      assert.ok(cases.length >= MIN_CASES, `the suite needs at least ${MIN_CASES} questions, has ${cases.length}`);
      assert.ok(files.size >= 6, `the suite needs at least 6 real data sets, uses ${files.size}`);
    }
    assert.equal(wrong, 0, `${wrong} wrong answers`);
    assert.ok(right / cases.length >= RIGHT_TARGET, `${((right / cases.length) * 100).toFixed(1)}% right is below ${RIGHT_TARGET * 100}%`);
    assert.equal(unstated.length, 0, 'every table answer states its reading in its first line');
  });
});
