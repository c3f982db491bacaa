/**
 * Question text is hostile input to the built-in engine too (issue 25): it words values, names and
 * conditions into SQL itself, so a question carrying file paths, quotes, SQL fragments or Unicode
 * look-alikes must never make it read a file, the service's state or another dataset's table.
 * Each attempt is asked of the engine without a model, with the same secrets planted as for the
 * hostile model (hostileSql.test.ts). Prints attempts / escapes (target 0).
 */
import { strict as assert } from 'node:assert';
import { CSV, payloads, plantSecrets, SECRETS } from './hostilePayloads';
import { startRig, type EngineRig } from './engineHarness';

/** Quote and separator look-alikes, and invisible or reordering characters, put around a payload. */
const UNICODE = [
  (p: string) => p.replace(/'/g, '\uFF07'), (p: string) => p.replace(/'/g, '\u2019'), (p: string) => p.replace(/"/g, '\u201C'),
  (p: string) => `\u202E${p}\u202C`, (p: string) => p.replace(/ /g, '\u200B '), (p: string) => p.replace(/k/gi, '\u212A'),
  (p: string) => p.replace(/;/g, '\uFF1B'), (p: string) => `${p}\u0000`,
];

/** Ways a question words a payload: on its own, as a value, a quoted value, a name, after a closing quote. */
function questions(outside: string, state: string, other: string): string[] {
  const out: string[] = [];
  for (const p of [outside, state, other, `'${outside}'`, `"${other}"`, `read_csv('${outside}')`]) {
    out.push(`total revenue by region from ${p}`, `show the rows where region is ${p}`, `how many rows are in ${p}`, `average ${p} by region`);
  }
  for (const p of payloads(outside, state, other)) {
    out.push(p, `show the rows where region is ${p}`, `total revenue where region = '${p}'`, `total revenue by region') UNION ALL ${p} --`);
  }
  for (const wrap of UNICODE) {
    out.push(wrap(`show the rows where region is Europe' UNION ALL SELECT * FROM read_csv('${outside}') --`), wrap(`total revenue by "${other}"`));
  }
  return out;
}

describe('the built-in engine against hostile questions (issue 25)', function () {
  this.timeout(600_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'sales.csv': CSV, 'other.csv': `secret\n${SECRETS[2] as string}\n` });
  });
  after(async () => rig?.close());

  it('lets no question show a file, state or table outside the question\'s data', async () => {
    const { outside, state, other } = await plantSecrets(rig);
    const list = questions(outside, state, other);
    const escapes: string[] = [];
    for (const q of list) {
      const a = await rig.ask(q, ['sales.csv']);
      const seen = JSON.stringify(a.events);
      const leaked = SECRETS.filter((s) => seen.includes(s));
      if (leaked.length > 0) escapes.push(`${q} -> ${leaked.join(', ')}`);
    }
    console.log(`      SQL guard: ${list.length} escape attempts through the built-in engine / ${escapes.length} escapes (target 0)`);
    assert.ok(list.length >= 200);
    assert.deepEqual(escapes, []);
  });
});
