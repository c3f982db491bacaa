/**
 * Time series and panels: grunfeld.csv (11 firms x 1935-1954), macrodata.csv (US quarters
 * 1959Q1-2009Q3), sunspots.csv (yearly, 1700-2008), elec_equip.csv (monthly index, dates written
 * "Jan-1-1995", value column with an unreadable code name) and us-births.csv (one row per day,
 * 1969-1988). Time phrasing ("since", "before", "between", "in the 1970s", "2008 Q4"), peaks and
 * lows with the row they belong to, per-group breakdowns, counts of rows, follow-ups, refusals.
 */
import { aggregate, groupBy, pearson, topKeys } from '../expect';
import { num, type RealFiles } from './realFiles';
import type { RealCase } from './realExpect';
import { extreme, only } from './caseKit';

const G = ['grunfeld.csv'];
const M = ['macrodata.csv'];
const S = ['sunspots.csv'];
const E = ['elec_equip.csv'];
const B = ['us-births.csv'];

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** "Mar-1-2005" -> "2005-03-01". */
function isoOfMonDY(s: string): string {
  const m = /^([A-Za-z]{3})-(\d{1,2})-(\d{4})$/.exec(s.trim());
  const mi = m ? MONTHS.indexOf((m[1] ?? '').toLowerCase()) : -1;
  if (!m || mi < 0) throw new Error(`bad date ${s}`);
  return `${m[3]}-${String(mi + 1).padStart(2, '0')}-${(m[2] ?? '').padStart(2, '0')}`;
}

const avg = (xs: ReadonlyArray<number | null>): number => aggregate(xs, 'avg');
const sum = (xs: ReadonlyArray<number | null>): number => aggregate(xs, 'sum');

/** Pearson r over the rows where both values are present. */
function pearsonPresent<T>(rows: readonly T[], a: (r: T) => number | null, b: (r: T) => number | null): number {
  const both = rows.map((r) => [a(r), b(r)] as const).filter((p): p is readonly [number, number] => p[0] !== null && p[1] !== null);
  return pearson(both.map((p) => p[0]), both.map((p) => p[1]));
}

export function seriesCases(f: RealFiles): RealCase[] {
  // ---- grunfeld.csv: one row per firm and year ----
  const grun = f.csv('grunfeld.csv').map((r) => ({
    firm: (r['firm'] ?? '').trim(), year: num(r['year']) ?? NaN, invest: num(r['invest']), value: num(r['value']), capital: num(r['capital']),
  }));
  const firmYear = (firm: string, year: number): (typeof grun)[number] => only(grun, (g) => g.firm === firm && g.year === year);
  const investOf = (firm: string, from: number, to: number): Array<number | null> => grun.filter((g) => g.firm === firm && g.year >= from && g.year <= to).map((g) => g.invest);
  const gmPeak = extreme(grun.filter((g) => g.firm === 'General Motors'), (g) => g.invest);
  const firmTotals = groupBy(grun, (g) => g.firm, (g) => g.invest, 'sum');
  const topTotal = topKeys(firmTotals, 2);
  if (firmTotals[topTotal[0] ?? ''] === firmTotals[topTotal[1] ?? '']) throw new Error('tie in firm totals');
  const avgValueTop4 = topKeys(groupBy(grun, (g) => g.firm, (g) => g.value, 'avg'), 4);

  // ---- macrodata.csv: one row per quarter ----
  const macro = f.csv('macrodata.csv').map((r) => ({
    year: num(r['year']) ?? NaN, quarter: num(r['quarter']) ?? NaN, realgdp: num(r['realgdp']), realcons: num(r['realcons']),
    tbilrate: num(r['tbilrate']), unemp: num(r['unemp']), infl: num(r['infl']),
  }));
  const yq = (y: number, q: number): (typeof macro)[number] => only(macro, (m) => m.year === y && m.quarter === q);
  const macroYears = (from: number, to: number): typeof macro => macro.filter((m) => m.year >= from && m.year <= to);
  const unempPeak = extreme(macro, (m) => m.unemp);
  const gdpPeak = extreme(macro, (m) => m.realgdp);

  // ---- sunspots.csv: one row per year ----
  const sun = f.csv('sunspots.csv').map((r) => ({ year: num(r['YEAR']) ?? NaN, activity: num(r['SUNACTIVITY']) }));
  const sunYears = (from: number, to: number): Array<number | null> => sun.filter((s) => s.year >= from && s.year <= to).map((s) => s.activity);
  const sunPeak = extreme(sun, (s) => s.activity);
  const sunLow1900 = extreme(sun.filter((s) => s.year >= 1900), (s) => s.activity, 'min');

  // ---- elec_equip.csv: one row per month ----
  const elecRaw = f.csv('elec_equip.csv');
  const valueCol = Object.keys(elecRaw[0] ?? {}).find((k) => k !== 'DATE') ?? '';
  const elec = elecRaw.map((r) => {
    const iso = isoOfMonDY(r['DATE'] ?? '');
    return { iso, year: Number(iso.slice(0, 4)), month: iso.slice(0, 7), value: num(r[valueCol]) };
  });
  const elecYear = (y: number): Array<number | null> => elec.filter((e) => e.year === y).map((e) => e.value);
  const elecPeak = extreme(elec, (e) => e.value);
  const elec2010 = Object.fromEntries(elec.filter((e) => e.year === 2010).map((e) => [e.month, e.value ?? NaN]));

  // ---- us-births.csv: one row per day ----
  const births = f.csv('us-births.csv').map((r) => ({
    year: num(r['year']) ?? NaN, month: num(r['month']) ?? NaN, day: num(r['date_of_month']) ?? NaN, dow: num(r['day_of_week']) ?? NaN, births: num(r['births']),
  }));
  const birthsYears = (from: number, to: number): Array<number | null> => births.filter((b) => b.year >= from && b.year <= to).map((b) => b.births);
  const birthsPeak = extreme(births, (b) => b.births);
  const daysOver10k = births.filter((b) => (b.births ?? -Infinity) > 10000).length;

  return [
    // ---------------- grunfeld.csv ----------------
    { tag: 'count', q: 'how many firms are in the data?', files: G, expect: { kind: 'number', value: aggregate(grun.map((g) => g.firm), 'countDistinct') } },
    { tag: 'lookup', q: "General Electric's investment in 1950", files: G, expect: { kind: 'number', value: firmYear('General Electric', 1950).invest ?? NaN } },
    { tag: 'phrasing', q: 'how much did general electric invest in 1950?', files: G, expect: { kind: 'number', value: firmYear('General Electric', 1950).invest ?? NaN } },
    { tag: 'group', q: 'average investment per firm', files: G, expect: { kind: 'groups', values: groupBy(grun, (g) => g.firm, (g) => g.invest, 'avg') } },
    { tag: 'phrasing', q: 'avg invest broken down by firm', files: G, expect: { kind: 'groups', values: groupBy(grun, (g) => g.firm, (g) => g.invest, 'avg') } },
    { tag: 'rank', q: 'Which firm invested the most in total?', files: G, expect: { kind: 'pick', key: topTotal[0] ?? '', value: firmTotals[topTotal[0] ?? ''] ?? NaN } },
    { tag: 'rank', q: 'top 3 firms by average firm value', files: G, expect: { kind: 'top', keys: avgValueTop4.slice(0, 3) } },
    { tag: 'rank', q: "when was General Motors' investment highest?", files: G, expect: { kind: 'pick', key: String(gmPeak.row.year), value: gmPeak.value } },
    { tag: 'filter', q: 'total IBM investment since 1950', files: G, expect: { kind: 'number', value: sum(investOf('IBM', 1950, 9999)) } },
    { tag: 'count', q: 'how many firms invested more than 100 in 1954?', files: G, expect: { kind: 'number', value: grun.filter((g) => g.year === 1954 && (g.invest ?? -Infinity) > 100).length } },
    {
      tag: 'followup', q: 'what about US Steel?', files: G, history: ['average investment of General Motors before 1945'],
      expect: { kind: 'number', value: avg(investOf('US Steel', 0, 1944)) },
    },
    { tag: 'followup', q: 'now only for 1950', files: G, history: ['total investment by all firms in 1954'], expect: { kind: 'number', value: sum(grun.filter((g) => g.year === 1950).map((g) => g.invest)) } },
    { tag: 'correlation', q: 'How strongly are investment and firm value correlated?', files: G, expect: { kind: 'number', value: pearsonPresent(grun, (g) => g.invest, (g) => g.value) } },
    { tag: 'refuse', q: "What was Ford's investment in 1950?", files: G, expect: { kind: 'refuse' } },

    // ---------------- macrodata.csv ----------------
    { tag: 'lookup', q: 'What was the unemployment rate in 2008 Q4?', files: M, expect: { kind: 'number', value: yq(2008, 4).unemp ?? NaN } },
    { tag: 'phrasing', q: "what's unemployment in Q4 2008", files: M, expect: { kind: 'number', value: yq(2008, 4).unemp ?? NaN } },
    { tag: 'format', q: 'unemp 2008q4', files: M, expect: { kind: 'number', value: yq(2008, 4).unemp ?? NaN } },
    { tag: 'group', q: 'average unemployment rate by quarter of the year', files: M, expect: { kind: 'groups', values: groupBy(macro, (m) => String(m.quarter), (m) => m.unemp, 'avg') } },
    { tag: 'rank', q: 'when was unemployment highest?', files: M, expect: { kind: 'pick', key: String(unempPeak.row.year), value: unempPeak.value } },
    { tag: 'rank', q: 'peak real gdp - which year and quarter?', files: M, expect: { kind: 'pick', key: String(gdpPeak.row.year), value: gdpPeak.value } },
    { tag: 'dates', q: 'avg inflation in the 1970s', files: M, expect: { kind: 'number', value: avg(macroYears(1970, 1979).map((m) => m.infl)) } },
    { tag: 'dates', q: 'average real consumption between 1990 and 1995', files: M, expect: { kind: 'number', value: avg(macroYears(1990, 1995).map((m) => m.realcons)) } },
    { tag: 'group', q: 'average t-bill rate per year since 2000', files: M, expect: { kind: 'groups', values: groupBy(macroYears(2000, 9999), (m) => String(m.year), (m) => m.tbilrate, 'avg') } },
    { tag: 'count', q: 'How many quarters had unemployment above 8%?', files: M, expect: { kind: 'number', value: macro.filter((m) => (m.unemp ?? -Infinity) > 8).length } },
    { tag: 'aggregate', q: 'typical unemployment rate', files: M, expect: { kind: 'number', value: aggregate(macro.map((m) => m.unemp), 'median') } },
    { tag: 'correlation', q: 'how strongly are the t-bill rate and unemployment correlated', files: M, expect: { kind: 'number', value: pearsonPresent(macro, (m) => m.tbilrate, (m) => m.unemp) } },
    { tag: 'followup', q: 'now only for 2009', files: M, history: ['average unemployment in 1982'], expect: { kind: 'number', value: avg(macroYears(2009, 2009).map((m) => m.unemp)) } },
    { tag: 'refuse', q: 'what was the federal budget deficit in 2005?', files: M, expect: { kind: 'refuse' } },

    // ---------------- sunspots.csv ----------------
    { tag: 'rank', q: 'Which year had the most sunspot activity?', files: S, expect: { kind: 'pick', key: String(sunPeak.row.year), value: sunPeak.value } },
    { tag: 'phrasing', q: 'record sunspot year', files: S, expect: { kind: 'pick', key: String(sunPeak.row.year), value: sunPeak.value } },
    { tag: 'rank', q: 'lowest sunspot activity since 1900 and when', files: S, expect: { kind: 'pick', key: String(sunLow1900.row.year), value: sunLow1900.value } },
    { tag: 'count', q: 'how many years had sunspot activity above 100?', files: S, expect: { kind: 'number', value: sun.filter((s) => (s.activity ?? -Infinity) > 100).length } },
    { tag: 'aggregate', q: "what's the typical sunspot activity", files: S, expect: { kind: 'number', value: aggregate(sun.map((s) => s.activity), 'median') } },
    { tag: 'dates', q: 'average sunspot activity between 1940 and 1945', files: S, expect: { kind: 'number', value: avg(sunYears(1940, 1945)) } },
    { tag: 'dates', q: 'avg sunspot activity in the 1990s', files: S, expect: { kind: 'number', value: avg(sunYears(1990, 1999)) } },
    { tag: 'dates', q: 'average sunspot activity per decade', files: S, expect: { kind: 'groups', values: groupBy(sun, (s) => String(Math.floor(s.year / 10) * 10), (s) => s.activity, 'avg') } },
    { tag: 'followup', q: 'and before 1800?', files: S, history: ['average sunspot activity since 1950'], expect: { kind: 'number', value: avg(sunYears(0, 1799)) } },
    // "the 1900s": the decade 1900-1909 or the whole century? Different numbers either way.
    { tag: 'refuse', q: 'average sunspot activity in the 1900s', files: S, expect: { kind: 'refuse' } },

    // ---------------- elec_equip.csv ----------------
    { tag: 'dates', q: 'average index in 2000', files: E, expect: { kind: 'number', value: avg(elecYear(2000)) } },
    { tag: 'lookup', q: 'what was the value in March 2005?', files: E, expect: { kind: 'number', value: only(elec, (e) => e.month === '2005-03').value ?? NaN } },
    { tag: 'phrasing', q: 'index for 2005-03', files: E, expect: { kind: 'number', value: only(elec, (e) => e.month === '2005-03').value ?? NaN } },
    { tag: 'dates', q: 'monthly values in 2010', files: E, expect: { kind: 'groups', values: elec2010 } },
    { tag: 'rank', q: 'When was the index at its highest?', files: E, expect: { kind: 'pick', key: elecPeak.row.month, value: elecPeak.value } },
    { tag: 'count', q: 'how many months was the index above 100', files: E, expect: { kind: 'number', value: elec.filter((e) => (e.value ?? -Infinity) > 100).length } },
    { tag: 'followup', q: 'and in 2007?', files: E, history: ['average index in 2009'], expect: { kind: 'number', value: avg(elecYear(2007)) } },
    { tag: 'refuse', q: 'how many units of electrical equipment were sold in 2005?', files: E, expect: { kind: 'refuse' } },

    // ---------------- us-births.csv ----------------
    { tag: 'count', q: 'how many days had more than 10,000 births', files: B, expect: { kind: 'number', value: daysOver10k } },
    { tag: 'format', q: 'number of days with over 10000 births?', files: B, expect: { kind: 'number', value: daysOver10k } },
    { tag: 'format', q: 'How many days had fewer than 7,000 births?', files: B, expect: { kind: 'number', value: births.filter((b) => (b.births ?? Infinity) < 7000).length } },
    { tag: 'aggregate', q: 'how many babies were born in 1980', files: B, expect: { kind: 'number', value: sum(birthsYears(1980, 1980)) } },
    { tag: 'filter', q: 'total births between 1975 and 1980', files: B, expect: { kind: 'number', value: sum(birthsYears(1975, 1980)) } },
    { tag: 'dates', q: 'average daily births in the 1970s', files: B, expect: { kind: 'number', value: avg(birthsYears(1970, 1979)) } },
    { tag: 'group', q: 'total births per year', files: B, expect: { kind: 'groups', values: groupBy(births, (b) => String(b.year), (b) => b.births, 'sum') } },
    { tag: 'group', q: 'average daily births for each month of the year', files: B, expect: { kind: 'groups', values: groupBy(births, (b) => String(b.month), (b) => b.births, 'avg') } },
    { tag: 'group', q: 'avg births by day of week', files: B, expect: { kind: 'groups', values: groupBy(births, (b) => String(b.dow), (b) => b.births, 'avg') } },
    { tag: 'rank', q: 'what was the record number of births in one day, and when?', files: B, expect: { kind: 'pick', key: String(birthsPeak.row.year), value: birthsPeak.value } },
    { tag: 'followup', q: 'and in 1985?', files: B, history: ['total births in 1975'], expect: { kind: 'number', value: sum(birthsYears(1985, 1985)) } },
    // Mean daily births by month, or monthly totals averaged? Two readings, two numbers.
    { tag: 'refuse', q: 'average births per month', files: B, expect: { kind: 'refuse' } },
    { tag: 'refuse', q: 'how many twins were born in 1980?', files: B, expect: { kind: 'refuse' } },
  ];
}
