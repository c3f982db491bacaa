/**
 * Validation set B: copper.csv (world copper market 1951-1975), longley.csv (US economy
 * 1947-1962), danish_money.csv (Danish money demand per quarter, period written like 1974Q1),
 * elnino.csv (sea surface temperature, one row per year, one column per month), nile.csv (yearly
 * Nile volume 1871-1970), sensor-network.csv (4 sensor motes), minard-army.csv and
 * minard-cities.csv (Napoleon's march). Questions phrased the way people type them, not the way
 * the columns are spelled; expected answers computed here from the records. None of these files
 * has an empty cell, so "missing" questions have the answer 0.
 */
import { aggregate, groupBy, pearson } from '../expect';
import { num, type RealFiles } from './realFiles';
import type { RealCase } from './realExpect';
import { extreme, only } from './caseKit';

const C = ['copper.csv'];
const L = ['longley.csv'];
const D = ['danish_money.csv'];
const E = ['elnino.csv'];
const N = ['nile.csv'];
const S = ['sensor-network.csv'];
const A = ['minard-army.csv'];
const M = ['minard-cities.csv'];

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'] as const;

/** A value that must be present (the files have no empty cells; a null here is a reading error). */
function must(v: number | null | undefined, what: string): number {
  if (v === null || v === undefined || !Number.isFinite(v)) throw new Error(`no value for ${what}`);
  return v;
}

const avg = (xs: ReadonlyArray<number | null>): number => aggregate(xs, 'avg');
const sum = (xs: ReadonlyArray<number | null>): number => aggregate(xs, 'sum');
const median = (xs: ReadonlyArray<number | null>): number => aggregate(xs, 'median');
const decade = (year: number): string => String(Math.floor(year / 10) * 10);

/** Pearson r over the rows where both values are present. */
function pearsonPresent<T>(rows: readonly T[], a: (r: T) => number | null, b: (r: T) => number | null): number {
  const both = rows.map((r) => [a(r), b(r)] as const).filter((p): p is readonly [number, number] => p[0] !== null && p[1] !== null);
  return pearson(both.map((p) => p[0]), both.map((p) => p[1]));
}

export function validationBCases(f: RealFiles): RealCase[] {
  // ---- copper.csv: one row per year 1951-1975 ----
  const copper = f.csv('copper.csv').map((r) => ({
    year: must(num(r['YEAR']), 'copper YEAR'), consumption: num(r['WORLDCONSUMPTION']), price: num(r['COPPERPRICE']), alum: num(r['ALUMPRICE']),
  }));
  const cu = (from: number, to: number): typeof copper => copper.filter((c) => c.year >= from && c.year <= to);
  const cuPricePeak = extreme(copper, (c) => c.price);
  const cuConsPeak = extreme(copper, (c) => c.consumption);

  // ---- longley.csv: one row per year 1947-1962 ----
  const longley = f.csv('longley.csv').map((r) => ({
    year: must(num(r['YEAR']), 'longley YEAR'), totemp: num(r['TOTEMP']), deflator: num(r['GNPDEFL']), gnp: num(r['GNP']), unemp: num(r['UNEMP']), armed: num(r['ARMED']),
  }));
  const unempPeak = extreme(longley, (l) => l.unemp);
  const gnpPeak = extreme(longley, (l) => l.gnp);
  const armedPeak = extreme(longley, (l) => l.armed);

  // ---- danish_money.csv: one row per quarter 1974Q1-1987Q3 ----
  const danish = f.csv('danish_money.csv').map((r) => {
    const period = (r['period'] ?? '').trim();
    const m = /^(\d{4})Q([1-4])$/.exec(period);
    if (!m) throw new Error(`bad period ${period}`);
    return { period, year: Number(m[1]), quarter: Number(m[2]), lry: num(r['lry']), bond: num(r['ibo']), deposit: num(r['ide']) };
  });

  // ---- elnino.csv: one row per year 1950-2010, one column per month ----
  const elnino = f.csv('elnino.csv').map((r) => ({
    year: must(num(r['YEAR']), 'elnino YEAR'), m: Object.fromEntries(MONTHS.map((k) => [k, num(r[k])])) as Record<(typeof MONTHS)[number], number | null>,
  }));
  const warmestDec = extreme(elnino, (e) => e.m.DEC);

  // ---- nile.csv: one row per year 1871-1970 ----
  const nile = f.csv('nile.csv').map((r) => ({ year: must(num(r['year']), 'nile year'), volume: num(r['volume']) }));
  const ni = (from: number, to: number): Array<number | null> => nile.filter((n) => n.year >= from && n.year <= to).map((n) => n.volume);
  const nileLow = extreme(nile, (n) => n.volume, 'min');
  const nileHigh = extreme(nile, (n) => n.volume);

  // ---- sensor-network.csv: one row per reading; `reading` is a per-mote sequence number, not a time ----
  const sensor = f.csv('sensor-network.csv').map((r) => ({
    mote: (r['mote_id'] ?? '').trim(), indoor: (r['indoor'] ?? '').trim(), humidity: num(r['humidity']), temp: num(r['temperature']), label: (r['label'] ?? '').trim(),
  }));
  const hottest = extreme(sensor, (s) => s.temp);

  // ---- minard-army.csv: one row per point of the route; size = soldiers still there ----
  const army = f.csv('minard-army.csv').map((r) => ({ size: num(r['size']), dir: (r['direction'] ?? '').trim(), division: (r['division'] ?? '').trim() }));
  const divMax = groupBy(army, (a) => a.division, (a) => a.size, 'max');
  const bigDiv = extreme(Object.entries(divMax), ([, v]) => v);

  // ---- minard-cities.csv: one row per city ----
  const cities = f.csv('minard-cities.csv').map((r) => ({ city: (r['city'] ?? '').trim(), lon: num(r['lon']), lat: num(r['lat']) }));
  const east = extreme(cities, (c) => c.lon);
  const minLat = aggregate(cities.map((c) => c.lat), 'min');
  const southmost = cities.filter((c) => c.lat === minLat).map((c) => c.city);
  if (southmost.length !== 2) throw new Error(`expected two southernmost cities, got ${southmost.length}`);

  return [
    // ---------------- copper.csv ----------------
    { tag: 'lookup', q: 'What was the copper price in 1970?', files: C, expect: { kind: 'number', value: must(only(copper, (c) => c.year === 1970).price, 'copper 1970') } },
    { tag: 'rank', q: 'when was the copper price highest?', files: C, expect: { kind: 'pick', key: String(cuPricePeak.row.year), value: cuPricePeak.value } },
    { tag: 'phrasing', q: 'record copper price - what year', files: C, expect: { kind: 'pick', key: String(cuPricePeak.row.year), value: cuPricePeak.value } },
    { tag: 'rank', q: 'Peak world consumption of copper, and the year?', files: C, expect: { kind: 'pick', key: String(cuConsPeak.row.year), value: cuConsPeak.value } },
    { tag: 'dates', q: 'avg copper price since 1955', files: C, expect: { kind: 'number', value: avg(cu(1955, 9999).map((c) => c.price)) } },
    { tag: 'dates', q: 'average copper price in the 1960s', files: C, expect: { kind: 'number', value: avg(cu(1960, 1969).map((c) => c.price)) } },
    { tag: 'filter', q: 'total world copper consumption between 1950 and 1959', files: C, expect: { kind: 'number', value: sum(cu(1950, 1959).map((c) => c.consumption)) } },
    { tag: 'correlation', q: 'how strongly are the copper price and the aluminium price correlated', files: C, expect: { kind: 'number', value: pearsonPresent(copper, (c) => c.price, (c) => c.alum) } },
    { tag: 'followup', q: 'now only since 1965', files: C, history: ['average copper price before 1960'], expect: { kind: 'number', value: avg(cu(1965, 9999).map((c) => c.price)) } },
    // Two prices in the file (copper and aluminum): which one?
    { tag: 'refuse', q: 'average price since 1955', files: C, expect: { kind: 'refuse' } },

    // ---------------- longley.csv ----------------
    { tag: 'lookup', q: 'total employment in 1950', files: L, expect: { kind: 'number', value: must(only(longley, (l) => l.year === 1950).totemp, 'totemp 1950') } },
    { tag: 'rank', q: 'which year had the most unemployed people?', files: L, expect: { kind: 'pick', key: String(unempPeak.row.year), value: unempPeak.value } },
    { tag: 'rank', q: 'peak GNP', files: L, expect: { kind: 'pick', key: String(gnpPeak.row.year), value: gnpPeak.value } },
    { tag: 'phrasing', q: 'in which year were the armed forces largest?', files: L, expect: { kind: 'pick', key: String(armedPeak.row.year), value: armedPeak.value } },
    { tag: 'format', q: 'How many years had total employment over 65,000?', files: L, expect: { kind: 'number', value: longley.filter((l) => (l.totemp ?? -Infinity) > 65000).length } },
    { tag: 'correlation', q: 'correlation between GNP and total employment', files: L, expect: { kind: 'number', value: pearsonPresent(longley, (l) => l.gnp, (l) => l.totemp) } },
    { tag: 'followup', q: 'and in 1960?', files: L, history: ['total employment in 1947'], expect: { kind: 'number', value: must(only(longley, (l) => l.year === 1960).totemp, 'totemp 1960') } },
    { tag: 'refuse', q: 'How many women were employed in 1950?', files: L, expect: { kind: 'refuse' } },

    // ---------------- danish_money.csv ----------------
    // Needs the data set's documentation, not in the file: the bond rate is `ibo`.
    { tag: 'docs', q: 'What was the bond rate in 1980 Q2?', files: D, expect: { kind: 'refuse' } },
    // Needs the data set's documentation, not in the file: the deposit rate is `ide`.
    { tag: 'docs', q: 'deposit rate 1980Q2', files: D, expect: { kind: 'refuse' } },
    // Needs the data set's documentation, not in the file: the bond rate is `ibo`.
    { tag: 'docs', q: "what's the bond rate for q2 1980", files: D, expect: { kind: 'refuse' } },
    // Needs the data set's documentation, not in the file: the bond rate is `ibo`.
    { tag: 'docs', q: 'average bond rate in 1985', files: D, expect: { kind: 'refuse' } },
    // Needs the data set's documentation, not in the file: the bond rate is `ibo`.
    { tag: 'docs', q: 'when was the bond rate at its highest?', files: D, expect: { kind: 'refuse' } },
    { tag: 'count', q: 'how many quarters are there in the data?', files: D, expect: { kind: 'number', value: danish.length } },
    // Needs the data set's documentation, not in the file: the deposit rate is `ide`.
    { tag: 'docs', q: 'average deposit rate per year', files: D, expect: { kind: 'refuse' } },
    // Needs the data set's documentation, not in the file: the earlier question (bond rate, `ibo`) cannot be read from the file.
    { tag: 'docs', q: 'and in 1986Q4?', files: D, history: ['bond rate in 1980Q2'], expect: { kind: 'refuse' } },
    // Bond rate or deposit rate? Both are interest rates.
    { tag: 'refuse', q: 'what was the interest rate in 1980Q2?', files: D, expect: { kind: 'refuse' } },

    // ---------------- elnino.csv ----------------
    // Needs the data set's documentation, not in the file: nothing in the file says its values are sea temperatures.
    { tag: 'docs', q: 'sea temperature in march 1983', files: E, expect: { kind: 'refuse' } },
    // Needs the data set's documentation, not in the file: nothing in the file says its values are sea temperatures.
    { tag: 'docs', q: 'Average sea temperature in March', files: E, expect: { kind: 'refuse' } },
    // Needs the data set's documentation, not in the file: nothing in the file says its values are sea temperatures.
    { tag: 'docs', q: 'avg march sea temp since 1990', files: E, expect: { kind: 'refuse' } },
    { tag: 'rank', q: 'Which year had the warmest December?', files: E, expect: { kind: 'pick', key: String(warmestDec.row.year), value: warmestDec.value } },
    // Needs the data set's documentation, not in the file: nothing in the file says its values are sea temperatures.
    { tag: 'docs', q: 'average sea surface temperature in 1997', files: E, expect: { kind: 'refuse' } },
    // Needs the data set's documentation, not in the file: nothing in the file says its values are temperatures.
    { tag: 'docs', q: 'average march temperature per decade', files: E, expect: { kind: 'refuse' } },
    // Needs the data set's documentation, not in the file: the earlier question (sea temperature) cannot be read from the file.
    { tag: 'docs', q: 'and in september?', files: E, history: ['average sea temperature in march'], expect: { kind: 'refuse' } },
    { tag: 'refuse', q: 'What was the sea temperature in March 2015?', files: E, expect: { kind: 'refuse' } },

    // ---------------- nile.csv ----------------
    { tag: 'lookup', q: 'Nile volume in 1913', files: N, expect: { kind: 'number', value: must(only(nile, (n) => n.year === 1913).volume, 'nile 1913') } },
    { tag: 'rank', q: 'lowest flow ever and when?', files: N, expect: { kind: 'pick', key: String(nileLow.row.year), value: nileLow.value } },
    { tag: 'rank', q: 'Which year had the highest river volume?', files: N, expect: { kind: 'pick', key: String(nileHigh.row.year), value: nileHigh.value } },
    { tag: 'dates', q: 'average volume before 1900', files: N, expect: { kind: 'number', value: avg(ni(0, 1899)) } },
    // Not "average volume per decade": volume adds up over years, so that could also mean the mean decade total.
    { tag: 'dates', q: 'Average yearly volume for each decade', files: N, expect: { kind: 'groups', values: groupBy(nile, (n) => decade(n.year), (n) => n.volume, 'avg') } },
    { tag: 'format', q: 'How many years had a volume of at least 1,000?', files: N, expect: { kind: 'number', value: nile.filter((n) => (n.volume ?? -Infinity) >= 1000).length } },
    { tag: 'aggregate', q: 'typical annual volume of the nile', files: N, expect: { kind: 'number', value: median(nile.map((n) => n.volume)) } },
    { tag: 'followup', q: 'what about the 1950s?', files: N, history: ['average volume in the 1880s'], expect: { kind: 'number', value: avg(ni(1950, 1959)) } },
    // The decade 1900-1909 or the century (1900-1970 here)? Different numbers either way.
    { tag: 'refuse', q: 'average volume in the 1900s', files: N, expect: { kind: 'refuse' } },

    // ---------------- sensor-network.csv ----------------
    { tag: 'count', q: 'how many readings are there?', files: S, expect: { kind: 'number', value: sensor.length } },
    // Needs the data set's documentation, not in the file: anomalies are `label` = 1.
    { tag: 'docs', q: 'How many readings were anomalies?', files: S, expect: { kind: 'refuse' } },
    // Needs the data set's documentation, not in the file: anomalies are `label` = 1.
    { tag: 'docs', q: 'number of anomalous readings', files: S, expect: { kind: 'refuse' } },
    { tag: 'filter', q: 'average humidity indoors', files: S, expect: { kind: 'number', value: avg(sensor.filter((s) => s.indoor === '1').map((s) => s.humidity)) } },
    { tag: 'phrasing', q: 'avg temperature of the outdoor readings', files: S, expect: { kind: 'number', value: avg(sensor.filter((s) => s.indoor === '0').map((s) => s.temp)) } },
    { tag: 'group', q: 'Avg temperature indoor vs outdoor', files: S, expect: { kind: 'groups', values: groupBy(sensor, (s) => s.indoor, (s) => s.temp, 'avg') } },
    { tag: 'group', q: 'How many readings were there for each mote?', files: S, expect: { kind: 'groups', values: groupBy(sensor, (s) => s.mote, (s) => s.temp, 'count') } },
    { tag: 'rank', q: 'which mote recorded the highest temperature?', files: S, expect: { kind: 'pick', key: hottest.row.mote, value: hottest.value } },
    { tag: 'aggregate', q: 'typical temperature for mote 2', files: S, expect: { kind: 'number', value: median(sensor.filter((s) => s.mote === '2').map((s) => s.temp)) } },
    { tag: 'nulls', q: 'how many readings are missing a humidity value?', files: S, expect: { kind: 'number', value: sensor.filter((s) => s.humidity === null).length } },
    { tag: 'followup', q: 'and for mote 3?', files: S, history: ['average temperature for mote 2'], expect: { kind: 'number', value: avg(sensor.filter((s) => s.mote === '3').map((s) => s.temp)) } },
    // Needs the data set's documentation, not in the file: the earlier question counts anomalies (`label` = 1).
    { tag: 'docs', q: 'how many of those were outdoors?', files: S, history: ['how many anomalous readings were there'], expect: { kind: 'refuse' } },
    // `reading` is a sequence number per mote; there is no clock time in the file.
    { tag: 'refuse', q: 'what time of day was it hottest?', files: S, expect: { kind: 'refuse' } },

    // ---------------- minard-army.csv ----------------
    // Needs the data set's documentation, not in the file: soldiers are `size`, and the retreat is `direction` = R.
    { tag: 'docs', q: 'fewest soldiers left at any point on the retreat', files: A, expect: { kind: 'refuse' } },
    // Needs the data set's documentation, not in the file: soldiers are `size`.
    { tag: 'docs', q: 'how many points on the route had more than 10,000 soldiers?', files: A, expect: { kind: 'refuse' } },
    // Needs the data set's documentation, not in the file: the advance and the retreat are the codes A and R of `direction`.
    { tag: 'docs', q: 'average army size on the advance vs the retreat', files: A, expect: { kind: 'refuse' } },
    { tag: 'rank', q: 'Which division had the most soldiers?', files: A, expect: { kind: 'pick', key: bigDiv.row[0] } },
    // Needs the data set's documentation, not in the file: the retreat is the code R of `direction`.
    { tag: 'docs', q: 'how many positions were recorded during the retreat', files: A, expect: { kind: 'refuse' } },
    // Needs the data set's documentation, not in the file: the advance and the retreat are the codes A and R of `direction`.
    { tag: 'docs', q: 'and on the retreat?', files: A, history: ['largest army size on the advance'], expect: { kind: 'refuse' } },
    { tag: 'refuse', q: 'How many horses did the army have?', files: A, expect: { kind: 'refuse' } },

    // ---------------- minard-cities.csv ----------------
    { tag: 'count', q: 'how many cities are there?', files: M, expect: { kind: 'number', value: cities.length } },
    { tag: 'rank', q: 'Which city is furthest east?', files: M, expect: { kind: 'pick', key: east.row.city } },
    { tag: 'lookup', q: "what's the latitude of Smolensk", files: M, expect: { kind: 'number', value: must(only(cities, (c) => c.city === 'Smolensk').lat, 'Smolensk lat') } },
    { tag: 'count', q: 'how many cities are east of 30 degrees longitude?', files: M, expect: { kind: 'number', value: cities.filter((c) => (c.lon ?? -Infinity) > 30).length } },
    // Two cities share the southernmost latitude: both must be listed.
    { tag: 'rank', q: 'which cities lie furthest south?', files: M, expect: { kind: 'rows', count: southmost.length, values: southmost } },
    { tag: 'refuse', q: 'What was the population of Wilna?', files: M, expect: { kind: 'refuse' } },
  ];
}
