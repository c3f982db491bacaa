/**
 * statecrime.csv (US states, 2009) and cpunish.csv (executions by state, 1997): lookups by a
 * named value, rankings, counts of states meeting a condition, and a two-file question.
 */
import { aggregate, pearson, topKeys } from '../expect';
import { num, type RealFiles } from './realFiles';
import type { RealCase } from './realExpect';

const S = ['statecrime.csv'];
const C = ['cpunish.csv'];

export function stateCases(f: RealFiles): RealCase[] {
  const states = f.csv('statecrime.csv').map((r) => ({
    state: (r['state'] ?? '').trim(), violent: num(r['violent']) ?? NaN, murder: num(r['murder']) ?? NaN, hsGrad: num(r['hs_grad']) ?? NaN,
    poverty: num(r['poverty']) ?? NaN, single: num(r['single']) ?? NaN, white: num(r['white']) ?? NaN, urban: num(r['urban']) ?? NaN,
  }));
  const exec = f.csv('cpunish.csv').map((r) => ({ state: r['STATE'] ?? '', executions: num(r['EXECUTIONS']) ?? NaN, income: num(r['INCOME']) ?? NaN, south: num(r['SOUTH']) ?? NaN }));
  const byState = (name: string): (typeof states)[number] => {
    const s = states.find((x) => x.state === name);
    if (!s) throw new Error(`no state ${name}`);
    return s;
  };
  const top = (key: (s: (typeof states)[number]) => number, dir: 'desc' | 'asc' = 'desc', n = 1): string[] =>
    topKeys(Object.fromEntries(states.map((s) => [s.state, key(s)])), n, dir);
  return [
    { tag: 'lookup', q: "What's the murder rate in Texas?", files: S, expect: { kind: 'number', value: byState('Texas').murder } },
    { tag: 'lookup', q: 'poverty in new mexico', files: S, expect: { kind: 'number', value: byState('New Mexico').poverty } },
    { tag: 'rank', q: 'Which state has the highest murder rate?', files: S, expect: { kind: 'pick', key: top((s) => s.murder)[0] ?? '' } },
    { tag: 'rank', q: 'top 5 states by violent crime', files: S, expect: { kind: 'top', keys: top((s) => s.violent, 'desc', 5) } },
    { tag: 'rank', q: 'which 3 states have the lowest high school graduation rates', files: S, expect: { kind: 'top', keys: top((s) => s.hsGrad, 'asc', 3) } },
    { tag: 'count', q: 'How many states have a poverty rate above 15%?', files: S, expect: { kind: 'number', value: states.filter((s) => s.poverty > 15).length } },
    { tag: 'aggregate', q: 'average violent crime rate across all states', files: S, expect: { kind: 'number', value: aggregate(states.map((s) => s.violent), 'avg') } },
    { tag: 'phrasing', q: 'typical poverty rate', files: S, expect: { kind: 'number', value: aggregate(states.map((s) => s.poverty), 'median') } },
    { tag: 'correlation', q: 'How strongly are poverty and murder correlated?', files: S, expect: { kind: 'number', value: pearson(states.map((s) => s.poverty), states.map((s) => s.murder)) } },
    { tag: 'count', q: 'How many executions were there in total?', files: C, expect: { kind: 'number', value: aggregate(exec.map((e) => e.executions), 'sum') } },
    { tag: 'filter', q: 'total executions in southern states', files: C, expect: { kind: 'number', value: aggregate(exec.filter((e) => e.south === 1).map((e) => e.executions), 'sum') } },
    { tag: 'refuse', q: 'How many prisoners were on death row?', files: C, expect: { kind: 'refuse' } },
  ];
}
