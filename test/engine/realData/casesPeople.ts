/**
 * People and countries: fair.csv (Fair's 1974 survey of married women), cps-wages-1985.json (534
 * workers, a JSON array), countries.json (250 countries, nested JSON) and fertility.csv (World
 * Bank fertility rate, one column per year 1960-2013), alone and joined on the country code
 * (fertility "Country Code" = countries `cca3`).
 *
 * Data quirks that the expectations take as the files state them:
 * - cps-wages-1985.json: `union` = 1 for 438 workers and `married` = 1 for 184, the reverse of the
 *   original Berndt data (96 union members, 350 married); the package's README documents 1 as
 *   "union member" / "married", so questions follow the file's own coding (union = 1, married = 1).
 * - countries.json: Svalbard and Jan Mayen has area -1 (so no "smallest country" question); Kosovo
 *   is `UNK` there but `KSV` in fertility.csv; `independent` is null for Kosovo.
 * - fertility.csv: 2012 and 2013 are empty in every row; 7 rows have no country in countries.json
 *   (CHI Channel Islands, KSV Kosovo, and aggregates CAA, LCN, OED, OSS, PSS). Aggregates are not
 *   at the top or bottom of the years asked about, and questions avoid plain averages over all rows.
 */
import { aggregate, groupBy, pearson, topKeys } from '../expect';
import { num, type RealFiles } from './realFiles';
import type { RealCase } from './realExpect';

const F = ['fair.csv'];
const W = ['cps-wages-1985.json'];
const C = ['countries.json'];
const R = ['fertility.csv'];
const J = ['fertility.csv', 'countries.json'];

const pct = (part: number, whole: number): number => (part / whole) * 100;

export function peopleCases(f: RealFiles): RealCase[] {
  // ---- fair.csv ----
  const fair = f.csv('fair.csv').map((r) => ({
    rating: num(r['rate_marriage']) ?? NaN, age: num(r['age']) ?? NaN, yrs: num(r['yrs_married']) ?? NaN, children: num(r['children']) ?? NaN,
    religious: num(r['religious']) ?? NaN, educ: num(r['educ']) ?? NaN, occupation: num(r['occupation']) ?? NaN, affairs: num(r['affairs']) ?? NaN,
  }));
  type Woman = (typeof fair)[number];
  const women = (p: (w: Woman) => boolean): Woman[] => fair.filter(p);
  const noKids = women((w) => w.children === 0);

  // ---- cps-wages-1985.json ----
  const cps = f.json('cps-wages-1985.json').map((r) => ({
    education: num(r['education']) ?? NaN, south: num(r['south']) ?? NaN, gender: String(r['gender']), experience: num(r['experience']) ?? NaN,
    union: num(r['union']) ?? NaN, wage: num(r['wage']) ?? NaN, age: num(r['age']) ?? NaN, occupation: String(r['occupation']),
    sector: String(r['sector']), married: num(r['married']) ?? NaN,
  }));
  type Worker = (typeof cps)[number];
  const workers = (p: (w: Worker) => boolean): Worker[] => cps.filter(p);
  const wages = (ws: Worker[]): number[] => ws.map((w) => w.wage);
  const manuf = workers((w) => w.sector === 'manufacturing');
  const wageByOcc = groupBy(cps, (w) => w.occupation, (w) => w.wage, 'avg');

  // ---- countries.json (nested) ----
  const countries = f.json('countries.json').map((r) => {
    const name = r['name'] as { common: string; official: string };
    return {
      name: name.common, cca3: String(r['cca3']), region: String(r['region']), subregion: String(r['subregion']),
      landlocked: r['landlocked'] === true, unMember: r['unMember'] === true, independent: r['independent'] === true,
      capital: (r['capital'] as string[] | undefined) ?? [], borders: (r['borders'] as string[] | undefined) ?? [],
      languages: Object.values((r['languages'] as Record<string, string> | undefined) ?? {}), area: num(r['area']) ?? NaN,
    };
  });
  type Country = (typeof countries)[number];
  const country = (name: string): Country => {
    const c = countries.find((x) => x.name === name);
    if (!c) throw new Error(`no country ${name}`);
    return c;
  };
  const countOf = (p: (c: Country) => boolean): number => countries.filter(p).length;
  const areaTop = (p: (c: Country) => boolean, n: number): string[] => topKeys(Object.fromEntries(countries.filter(p).map((c) => [c.name, c.area])), n);

  // ---- fertility.csv (one column per year) ----
  const fert = f.csv('fertility.csv').map((r) => ({ name: r['Country Name'] ?? '', code: r['Country Code'] ?? '', year: (y: number): number | null => num(r[String(y)]) }));
  type Fert = (typeof fert)[number];
  const fertOf = (name: string, y: number): number => {
    const v = fert.find((x) => x.name === name)?.year(y);
    if (v === undefined || v === null) throw new Error(`no fertility for ${name} in ${y}`);
    return v;
  };
  const fertTop = (rows: Fert[], y: number, n: number, dir: 'desc' | 'asc' = 'desc'): string[] =>
    topKeys(Object.fromEntries(rows.flatMap((x) => (x.year(y) === null ? [] : [[x.name, x.year(y) as number]]))), n, dir);
  // The join: each fertility row to its country by code (an inner join: the 7 rows without a
  // country, CHI, KSV and the aggregates CAA, LCN, OED, OSS, PSS, are left out; so are countries
  // without a fertility row). Rows with an empty year are ignored by averages.
  const byCca3 = new Map(countries.map((c) => [c.cca3, c]));
  const joined = fert.flatMap((x) => {
    const c = byCca3.get(x.code);
    return c ? [{ ...x, c }] : [];
  });
  type Joined = (typeof joined)[number];
  const jFert = (p: (j: Joined) => boolean, y: number): number[] => joined.filter((j) => p(j) && j.year(y) !== null).map((j) => j.year(y) as number);

  return [
    // ======== fair.csv ========
    { tag: 'count', q: 'how many women have 3 children', files: F, expect: { kind: 'number', value: women((w) => w.children === 3).length } },
    { tag: 'phrasing', q: 'number of women with three kids?', files: F, expect: { kind: 'number', value: women((w) => w.children === 3).length } },
    { tag: 'count', q: 'How many women have been married for more than 10 years?', files: F, expect: { kind: 'number', value: women((w) => w.yrs > 10).length } },
    { tag: 'count', q: 'how many women have at least 16 years of education', files: F, expect: { kind: 'number', value: women((w) => w.educ >= 16).length } },
    { tag: 'aggregate', q: "what's the average marriage rating", files: F, expect: { kind: 'number', value: aggregate(fair.map((w) => w.rating), 'avg') } },
    { tag: 'filter', q: 'avg rate_marriage for women with 3 or more children', files: F, expect: { kind: 'number', value: aggregate(women((w) => w.children >= 3).map((w) => w.rating), 'avg') } },
    { tag: 'phrasing', q: 'typical age of the women in the survey', files: F, expect: { kind: 'number', value: aggregate(fair.map((w) => w.age), 'median') } },
    { tag: 'group', q: 'average affairs broken down by religiousness', files: F, expect: { kind: 'groups', values: groupBy(fair, (w) => w.religious, (w) => w.affairs, 'avg') } },
    { tag: 'group', q: 'how many women are there for each number of children', files: F, expect: { kind: 'groups', values: groupBy(fair, (w) => w.children, () => 1, 'count') } },
    { tag: 'aggregate', q: 'what percentage of women had no affairs?', files: F, expect: { kind: 'number', value: pct(women((w) => w.affairs === 0).length, fair.length) } },
    { tag: 'correlation', q: 'How strongly are marriage rating and affairs correlated?', files: F, expect: { kind: 'number', value: pearson(fair.map((w) => w.rating), fair.map((w) => w.affairs)) } },
    { tag: 'followup', q: 'and how many of those rate their marriage a 5?', history: ['how many women have no children'], files: F, expect: { kind: 'number', value: noKids.filter((w) => w.rating === 5).length } },
    { tag: 'refuse', q: "what's the average income of the husbands?", files: F, expect: { kind: 'refuse' } },
    // "Unhappy" has no threshold in a 1-5 rating: 1? 1-2? 1-3? Each gives a different count.
    { tag: 'refuse', q: 'how many women are unhappy in their marriage', files: F, expect: { kind: 'refuse' } },

    // ======== cps-wages-1985.json (union / married as the file codes them, see above) ========
    { tag: 'count', q: 'how many workers are there', files: W, expect: { kind: 'number', value: cps.length } },
    { tag: 'count', q: 'How many workers have 12 years of education?', files: W, expect: { kind: 'number', value: workers((w) => w.education === 12).length } },
    { tag: 'count', q: 'how many union members are there', files: W, expect: { kind: 'number', value: workers((w) => w.union === 1).length } },
    { tag: 'filter', q: 'average wage of married workers', files: W, expect: { kind: 'number', value: aggregate(wages(workers((w) => w.married === 1)), 'avg') } },
    { tag: 'filter', q: 'avg hourly wage for workers in the south', files: W, expect: { kind: 'number', value: aggregate(wages(workers((w) => w.south === 1)), 'avg') } },
    { tag: 'group', q: 'average wage by gender', files: W, expect: { kind: 'groups', values: groupBy(cps, (w) => w.gender, (w) => w.wage, 'avg') } },
    { tag: 'phrasing', q: 'what do men and women earn per hour on average?', files: W, expect: { kind: 'groups', values: groupBy(cps, (w) => w.gender, (w) => w.wage, 'avg') } },
    { tag: 'phrasing', q: "what's the typical wage for clerical workers", files: W, expect: { kind: 'number', value: aggregate(wages(workers((w) => w.occupation === 'clerical')), 'median') } },
    { tag: 'phrasing', q: 'median wage clerical', files: W, expect: { kind: 'number', value: aggregate(wages(workers((w) => w.occupation === 'clerical')), 'median') } },
    { tag: 'aggregate', q: 'what share of workers are female', files: W, expect: { kind: 'number', value: pct(workers((w) => w.gender === 'female').length, cps.length) } },
    { tag: 'aggregate', q: 'What percentage of manufacturing workers are union members?', files: W, expect: { kind: 'number', value: pct(manuf.filter((w) => w.union === 1).length, manuf.length) } },
    { tag: 'rank', q: 'which occupation pays the most on average', files: W, expect: { kind: 'pick', key: topKeys(wageByOcc, 1)[0] ?? '' } },
    { tag: 'rank', q: 'top 3 occupations by median wage', files: W, expect: { kind: 'top', keys: topKeys(groupBy(cps, (w) => w.occupation, (w) => w.wage, 'median'), 3) } },
    { tag: 'correlation', q: 'how strongly are education and wage correlated', files: W, expect: { kind: 'number', value: pearson(cps.map((w) => w.education), wages(cps)) } },
    { tag: 'followup', q: 'now only for women', history: ['average hourly wage'], files: W, expect: { kind: 'number', value: aggregate(wages(workers((w) => w.gender === 'female')), 'avg') } },
    { tag: 'followup', q: 'and how many of them are union members?', history: ['how many workers are in manufacturing'], files: W, expect: { kind: 'number', value: manuf.filter((w) => w.union === 1).length } },
    { tag: 'followup', q: 'same but only workers in the south', history: ['average wage by occupation'], files: W, expect: { kind: 'groups', values: groupBy(workers((w) => w.south === 1), (w) => w.occupation, (w) => w.wage, 'avg') } },
    { tag: 'refuse', q: 'how many hours a week do these workers work on average?', files: W, expect: { kind: 'refuse' } },

    // ======== countries.json (nested) ========
    { tag: 'nested', q: 'how many countries are landlocked', files: C, expect: { kind: 'number', value: countOf((c) => c.landlocked) } },
    { tag: 'phrasing', q: 'number of landlocked countries?', files: C, expect: { kind: 'number', value: countOf((c) => c.landlocked) } },
    { tag: 'nested', q: 'How many landlocked countries are in Africa?', files: C, expect: { kind: 'number', value: countOf((c) => c.landlocked && c.region === 'Africa') } },
    { tag: 'nested', q: 'how many countries are not UN members', files: C, expect: { kind: 'number', value: countOf((c) => !c.unMember) } },
    { tag: 'group', q: 'how many countries are in each region', files: C, expect: { kind: 'groups', values: groupBy(countries, (c) => c.region, () => 1, 'count') } },
    { tag: 'filter', q: 'how many countries are in south america', files: C, expect: { kind: 'number', value: countOf((c) => c.subregion === 'South America') } },
    { tag: 'rank', q: 'largest country by area in Europe', files: C, expect: { kind: 'pick', key: areaTop((c) => c.region === 'Europe', 1)[0] ?? '' } },
    { tag: 'rank', q: 'top 5 biggest african countries by area', files: C, expect: { kind: 'top', keys: areaTop((c) => c.region === 'Africa', 5) } },
    { tag: 'lookup', q: "what's the capital of australia", files: C, expect: { kind: 'pick', key: country('Australia').capital[0] ?? '' } },
    { tag: 'nested', q: 'how many countries border germany?', files: C, expect: { kind: 'number', value: country('Germany').borders.length } },
    { tag: 'nested', q: 'in how many countries is Spanish one of the languages', files: C, expect: { kind: 'number', value: countOf((c) => c.languages.includes('Spanish')) } },
    { tag: 'followup', q: 'how many of those are in asia?', history: ['how many countries are landlocked'], files: C, expect: { kind: 'number', value: countOf((c) => c.landlocked && c.region === 'Asia') } },
    { tag: 'refuse', q: 'how many countries have a population over 100 million', files: C, expect: { kind: 'refuse' } },

    // ======== fertility.csv (years are columns) ========
    { tag: 'lookup', q: 'fertility rate in Japan in 1990', files: R, expect: { kind: 'number', value: fertOf('Japan', 1990) } },
    { tag: 'followup', q: 'and in 2010?', history: ['fertility rate in Japan in 1990'], files: R, expect: { kind: 'number', value: fertOf('Japan', 2010) } },
    { tag: 'rank', q: 'which country had the highest fertility rate in 1960', files: R, expect: { kind: 'pick', key: fertTop(fert, 1960, 1)[0] ?? '' } },
    { tag: 'rank', q: 'lowest fertility rate in 2010 - which country?', files: R, expect: { kind: 'pick', key: fertTop(fert, 2010, 1, 'asc')[0] ?? '' } },
    // No aggregate row is above 6 in 2010, so "countries" and "rows" agree here.
    { tag: 'count', q: 'how many countries had a fertility rate above 6 in 2010', files: R, expect: { kind: 'number', value: fert.filter((x) => (x.year(2010) ?? -Infinity) > 6).length } },
    { tag: 'nulls', q: 'how many rows have no value for 1960?', files: R, expect: { kind: 'number', value: fert.filter((x) => x.year(1960) === null).length } },
    // 2012 is empty in every row: there is no number to give (a refusal, or "no rows match").
    { tag: 'nulls', q: 'fertility rate in germany in 2012', files: R, expect: { kind: 'none' } },
    // No year named: 52 year columns hold data, each with its own leader (the engine asks).
    { tag: 'refuse', q: 'which country has the highest fertility rate?', files: R, expect: { kind: 'refuse' } },

    // ======== fertility.csv + countries.json, joined on "Country Code" = cca3 ========
    { tag: 'join', q: 'average fertility rate in 2000 by region', files: J, expect: { kind: 'groups', values: groupBy(joined.filter((j) => j.year(2000) !== null), (j) => j.c.region, (j) => j.year(2000), 'avg') } },
    { tag: 'join', q: 'which african country had the highest fertility in 2010', files: J, expect: { kind: 'pick', key: fertTop(joined.filter((j) => j.c.region === 'Africa'), 2010, 1)[0] ?? '' } },
    { tag: 'join', q: 'avg fertility rate in 2010 for landlocked countries', files: J, expect: { kind: 'number', value: aggregate(jFert((j) => j.c.landlocked, 2010), 'avg') } },
    { tag: 'join', q: 'How many European countries had a fertility rate below 1.5 in 2010?', files: J, expect: { kind: 'number', value: jFert((j) => j.c.region === 'Europe', 2010).filter((v) => v < 1.5).length } },
    { tag: 'join', q: 'top 3 countries in south america by fertility rate in 1960', files: J, expect: { kind: 'top', keys: fertTop(joined.filter((j) => j.c.subregion === 'South America'), 1960, 3) } },
  ];
}
