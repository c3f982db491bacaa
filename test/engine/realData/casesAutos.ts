/**
 * autos.csv (UCI Automobile, 205 cars from 1985), periodic-table.json (118 elements, "" = missing)
 * and minard-temperature.csv (9 readings on Napoleon's retreat, dates like "18 Oct 1812"): counts of
 * rows naming a value ("four doors", "6 cylinders" where the cell says "six"), aggregates over
 * columns with gaps, the row behind a maximum, groupings, correlations, follow-ups and questions
 * the files cannot answer.
 */
import { aggregate, groupBy, pearson } from '../expect';
import { num, type JsonRec, type RealFiles } from './realFiles';
import type { RealCase } from './realExpect';
import { extreme, topStrict } from './caseKit';

const A = ['autos.csv'];
const P = ['periodic-table.json'];
const M = ['minard-temperature.csv'];

type N = number | null;

interface Car {
  make: string; fuel: string; aspir: string; doors: string; style: string; drive: string; cylinders: string;
  engCc: N; weight: N; hp: N; rpm: N; cityMpg: N; hwMpg: N; price: N;
}

interface Element {
  name: string; block: string; density: N; melting: N; boiling: N; electroneg: N; ionization: N; mass: N; year: N; yearText: string;
}

interface Reading { lon: number; temp: number; date: string; month: string }

const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : v === undefined || v === null ? '' : String(v));

function readCars(f: RealFiles): Car[] {
  return f.csv('autos.csv').map((r) => ({
    make: str(r['make']), fuel: str(r['fuel']), aspir: str(r['aspir']), doors: str(r['doors']), style: str(r['style']),
    drive: str(r['drive']), cylinders: str(r['cylinders']), engCc: num(r['eng_cc']), weight: num(r['weight']), hp: num(r['hp']),
    rpm: num(r['rpm']), cityMpg: num(r['city_mpg']), hwMpg: num(r['hw_mpg']), price: num(r['price']),
  }));
}

/** "1.00794(4)" -> 1.00794; [98] (mass number of the most stable isotope) -> 98; "" -> null. */
function atomicMass(v: unknown): N {
  if (Array.isArray(v)) return num(v[0]);
  const m = /^\s*([0-9.]+)/.exec(str(v));
  return m ? Number(m[1]) : null;
}

function readElements(f: RealFiles): Element[] {
  return f.json('periodic-table.json').map((e: JsonRec) => ({
    name: str(e['name']), block: str(e['groupBlock']), density: num(e['density']), melting: num(e['meltingPoint']),
    boiling: num(e['boilingPoint']), electroneg: num(e['electronegativity']), ionization: num(e['ionizationEnergy']),
    mass: atomicMass(e['atomicMass']), year: num(e['yearDiscovered']), yearText: str(e['yearDiscovered']),
  }));
}

function readReadings(f: RealFiles): Reading[] {
  return f.csv('minard-temperature.csv').map((r) => {
    const date = str(r['date']);
    return { lon: num(r['lon']) ?? NaN, temp: num(r['temp']) ?? NaN, date, month: date.split(' ').slice(1).join(' ') };
  });
}

/** Pearson r over the rows where both values are present. */
function pairedR<T>(rows: readonly T[], x: (r: T) => N, y: (r: T) => N): number {
  const both = rows.filter((r) => x(r) !== null && y(r) !== null);
  return pearson(both.map((r) => x(r) as number), both.map((r) => y(r) as number));
}

const avg = (xs: N[]): number => aggregate(xs, 'avg');
const median = (xs: N[]): number => aggregate(xs, 'median');

function carCases(cars: Car[]): RealCase[] {
  const count = (p: (c: Car) => boolean): number => cars.filter(p).length;
  const avgOf = (p: (c: Car) => boolean, v: (c: Car) => N): number => avg(cars.filter(p).map(v));
  const all = (): boolean => true;
  const priciest = extreme(cars, (c) => c.price);
  const perMake = groupBy(cars, (c) => c.make, (c) => c.price, 'avg');
  const carsPerMake = groupBy(cars, (c) => c.make, () => 1, 'count');
  const topMakeByCount = extreme(Object.entries(carsPerMake), ([, n]) => n);
  const topMakeByPrice = extreme(Object.entries(perMake), ([, v]) => v);
  const mercury = cars.filter((c) => c.make === 'mercury');
  if (mercury.length !== 1) throw new Error('expected one mercury');
  return [
    { tag: 'count', q: 'how many cars have four doors', files: A, expect: { kind: 'number', value: count((c) => c.doors === 'four') } },
    { tag: 'phrasing', q: 'number of 4 door cars?', files: A, expect: { kind: 'number', value: count((c) => c.doors === 'four') } },
    { tag: 'count', q: 'How many cars have 6 cylinders?', files: A, expect: { kind: 'number', value: count((c) => c.cylinders === 'six') } },
    { tag: 'count', q: 'How many Toyotas are in the data?', files: A, expect: { kind: 'number', value: count((c) => c.make === 'toyota') } },
    { tag: 'aggregate', q: 'average city mpg', files: A, expect: { kind: 'number', value: avgOf(all, (c) => c.cityMpg) } },
    { tag: 'aggregate', q: "what's the avg highway mpg", files: A, expect: { kind: 'number', value: avgOf(all, (c) => c.hwMpg) } },
    { tag: 'aggregate', q: 'max rpm', files: A, expect: { kind: 'number', value: aggregate(cars.map((c) => c.rpm), 'max') } },
    { tag: 'nulls', q: 'What is the average horsepower?', files: A, expect: { kind: 'number', value: avgOf(all, (c) => c.hp) } },
    { tag: 'phrasing', q: 'typical price of a car', files: A, expect: { kind: 'number', value: median(cars.map((c) => c.price)) } },
    { tag: 'filter', q: "average price of Toyota's cars", files: A, expect: { kind: 'number', value: avgOf((c) => c.make === 'toyota', (c) => c.price) } },
    { tag: 'filter', q: 'How many cars have more than 150 hp?', files: A, expect: { kind: 'number', value: count((c) => (c.hp ?? -Infinity) > 150) } },
    { tag: 'format', q: 'how many cars cost under $10,000', files: A, expect: { kind: 'number', value: count((c) => (c.price ?? Infinity) < 10000) } },
    { tag: 'filter', q: 'how many cars get at least 30 mpg in the city', files: A, expect: { kind: 'number', value: count((c) => (c.cityMpg ?? -Infinity) >= 30) } },
    { tag: 'format', q: 'cars priced above 20k - how many?', files: A, expect: { kind: 'number', value: count((c) => (c.price ?? -Infinity) > 20000) } },
    { tag: 'rank', q: 'most expensive car', files: A, expect: { kind: 'pick', key: priciest.row.make, value: priciest.value } },
    { tag: 'rank', q: 'Which make has the most cars?', files: A, expect: { kind: 'pick', key: topMakeByCount.row[0], value: topMakeByCount.value } },
    { tag: 'rank', q: 'top 3 makes by average price', files: A, expect: { kind: 'top', keys: topStrict(perMake, 3) } },
    { tag: 'phrasing', q: 'which make has the highest average price', files: A, expect: { kind: 'pick', key: topMakeByPrice.row[0], value: topMakeByPrice.value } },
    { tag: 'group', q: 'average price by fuel type', files: A, expect: { kind: 'groups', values: groupBy(cars, (c) => c.fuel, (c) => c.price, 'avg') } },
    { tag: 'group', q: 'number of cars broken down by cylinders', files: A, expect: { kind: 'groups', values: groupBy(cars, (c) => c.cylinders, () => 1, 'count') } },
    { tag: 'correlation', q: 'how strongly are engine size and horsepower correlated', files: A, expect: { kind: 'number', value: pairedR(cars, (c) => c.engCc, (c) => c.hp) } },
    { tag: 'nulls', q: 'how many cars have no price listed', files: A, expect: { kind: 'number', value: count((c) => c.price === null) } },
    { tag: 'lookup', q: 'how much horsepower does the mercury have', files: A, expect: { kind: 'number', value: mercury[0]?.hp ?? NaN } },
    { tag: 'followup', q: 'now only for diesel cars', history: ['average price of cars'], files: A, expect: { kind: 'number', value: avgOf((c) => c.fuel === 'diesel', (c) => c.price) } },
    { tag: 'followup', q: 'and for sedans?', history: ['average city mpg for hatchbacks'], files: A, expect: { kind: 'number', value: avgOf((c) => c.style === 'sedan', (c) => c.cityMpg) } },
    { tag: 'followup', q: 'how many of those are rwd', history: ['how many cars have more than 150 hp'], files: A, expect: { kind: 'number', value: count((c) => (c.hp ?? -Infinity) > 150 && c.drive === 'rwd') } },
    { tag: 'refuse', q: 'how many cars were sold', files: A, expect: { kind: 'refuse' } },
    // City or highway? The two averages differ by more than 5 mpg.
    { tag: 'refuse', q: 'average mpg', files: A, expect: { kind: 'refuse' } },
  ];
}

function elementCases(els: Element[]): RealCase[] {
  const count = (p: (e: Element) => boolean): number => els.filter(p).length;
  const avgOf = (p: (e: Element) => boolean, v: (e: Element) => N): number => avg(els.filter(p).map(v));
  const hottest = extreme(els, (e) => e.boiling);
  const densest = extreme(els, (e) => e.density);
  const earliest = extreme(els, (e) => e.year, 'min');
  const ancient = count((e) => e.yearText === 'Ancient');
  if (ancient < 2) throw new Error('expected several ancient elements');
  const gold = els.find((e) => e.name === 'Gold');
  return [
    { tag: 'count', q: 'how many noble gases are there', files: P, expect: { kind: 'number', value: count((e) => e.block === 'noble gas') } },
    { tag: 'nulls', q: 'how many elements have no known density', files: P, expect: { kind: 'number', value: count((e) => e.density === null) } },
    { tag: 'nulls', q: 'average density of the elements', files: P, expect: { kind: 'number', value: avgOf(() => true, (e) => e.density) } },
    { tag: 'filter', q: 'avg melting point of transition metals', files: P, expect: { kind: 'number', value: avgOf((e) => e.block === 'transition metal', (e) => e.melting) } },
    { tag: 'rank', q: 'Which element has the highest boiling point?', files: P, expect: { kind: 'pick', key: hottest.row.name, value: hottest.value } },
    { tag: 'phrasing', q: "what's the densest element", files: P, expect: { kind: 'pick', key: densest.row.name, value: densest.value } },
    // Several elements are "Ancient": the file cannot tell which of them came first.
    { tag: 'refuse', q: 'which element was discovered first', files: P, expect: { kind: 'refuse' } },
    { tag: 'rank', q: 'of the elements with a known discovery year, which was discovered earliest?', files: P, expect: { kind: 'pick', key: earliest.row.name, value: earliest.value } },
    { tag: 'filter', q: 'how many elements were discovered after 1900', files: P, expect: { kind: 'number', value: count((e) => (e.year ?? -Infinity) > 1900) } },
    { tag: 'group', q: 'number of elements per group block', files: P, expect: { kind: 'groups', values: groupBy(els, (e) => e.block, () => 1, 'count') } },
    { tag: 'correlation', q: 'How strongly are electronegativity and ionization energy correlated?', files: P, expect: { kind: 'number', value: pairedR(els, (e) => e.electroneg, (e) => e.ionization) } },
    { tag: 'followup', q: "what's their average boiling point", history: ['how many noble gases are there'], files: P, expect: { kind: 'number', value: avgOf((e) => e.block === 'noble gas', (e) => e.boiling) } },
    { tag: 'lookup', q: 'whats the density of gold', files: P, expect: { kind: 'number', value: gold?.density ?? NaN } },
    // atomicMass is text like "12.0107(8)"; every nonmetal has a plain (unbracketed) value.
    { tag: 'format', q: 'average atomic mass of the nonmetals', files: P, expect: { kind: 'number', value: avgOf((e) => e.block === 'nonmetal', (e) => e.mass) } },
  ];
}

function minardCases(rs: Reading[]): RealCase[] {
  const coldest = extreme(rs, (r) => r.temp, 'min');
  const on = (date: string): number => {
    const hit = rs.filter((r) => r.date === date);
    if (hit.length !== 1 || hit[0] === undefined) throw new Error(`no single reading on ${date}`);
    return hit[0].temp;
  };
  return [
    { tag: 'rank', q: 'what was the coldest day', files: M, expect: { kind: 'pick', key: coldest.row.date, value: coldest.value } },
    { tag: 'lookup', q: 'temperature on 14 Nov 1812', files: M, expect: { kind: 'number', value: on('14 Nov 1812') } },
    { tag: 'filter', q: 'how many readings were colder than -20 degrees?', files: M, expect: { kind: 'number', value: rs.filter((r) => r.temp < -20).length } },
    { tag: 'filter', q: 'avg temp in november 1812', files: M, expect: { kind: 'number', value: avg(rs.filter((r) => r.month === 'Nov 1812').map((r) => r.temp)) } },
    { tag: 'rank', q: 'at what longitude was the lowest temperature recorded', files: M, expect: { kind: 'pick', key: String(coldest.row.lon), value: coldest.value } },
    { tag: 'refuse', q: 'how many soldiers died on the coldest day', files: M, expect: { kind: 'refuse' } },
  ];
}

export function autosCases(f: RealFiles): RealCase[] {
  return [...carCases(readCars(f)), ...elementCases(readElements(f)), ...minardCases(readReadings(f))];
}
