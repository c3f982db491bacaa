/**
 * Validation set A: statsmodels data sets with cryptic column names, asked about the way people
 * type. star98.csv (303 California school districts, no district names; MATHTOT is the number of
 * math test takers, AVSALK the average teacher salary in $1000s, PERSPENK spending per pupil in
 * $1000s), anes96.csv (944 voters, TAB-separated, header names in single quotes, coded answers),
 * scotvote.csv (32 council districts, names like "Glasgow_City"; AGE is the percent of children
 * aged 5-15, not an age), committee.csv (20 House committees; bills counted in the 103rd and the
 * 104th House), china_smoking.csv (8 cities as 2x2 counts; Nanjing is spelled "Nanjng"),
 * heart.csv (69 transplant patients, survival in days) and modechoice.csv (semicolons; 840 rows =
 * 210 travellers x 4 modes, exactly one chosen mode per traveller, income repeated on each row).
 */
import { aggregate, groupBy, pearson } from '../expect';
import { num, type Rec, type RealFiles } from './realFiles';
import type { RealCase } from './realExpect';
import { extreme, topStrict } from './caseKit';

const STAR = ['star98.csv'];
const ANES = ['anes96.csv'];
const SCOT = ['scotvote.csv'];
const COMM = ['committee.csv'];
const CHINA = ['china_smoking.csv'];
const HEART = ['heart.csv'];
const MODE = ['modechoice.csv'];

type Row = Record<string, number>;

/** Every column as a number (blank -> NaN; none of these files has blanks in numeric columns). */
function numeric(recs: Rec[], skip: string[] = []): Array<Row & { name: string }> {
  return recs.map((r) => {
    const out: Row = {};
    for (const [k, v] of Object.entries(r)) if (!skip.includes(k)) out[k] = num(v) ?? NaN;
    return { ...out, name: skip.length > 0 ? (r[skip[0] ?? ''] ?? '').trim() : '' } as Row & { name: string };
  });
}

/** anes96.csv: TAB-separated with headers like 'popul' -> strip the single quotes. */
function readAnes(f: RealFiles): Row[] {
  return f.csv('anes96.csv', '\t').map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k.replace(/^'(.*)'$/, '$1'), num(v) ?? NaN])));
}

const avg = (xs: number[]): number => aggregate(xs, 'avg');
const median = (xs: number[]): number => aggregate(xs, 'median');
const r = <T>(rows: readonly T[], x: (r: T) => number, y: (r: T) => number): number => pearson(rows.map(x), rows.map(y));

function one<T extends { name: string }>(rows: readonly T[], name: string): T {
  const hit = rows.filter((x) => x.name === name);
  if (hit.length !== 1 || hit[0] === undefined) throw new Error(`no single row named ${name}`);
  return hit[0];
}

function starCases(f: RealFiles): RealCase[] {
  const d = numeric(f.csv('star98.csv'));
  const col = (c: string): number[] => d.map((x) => x[c] ?? NaN);
  const poor = d.filter((x) => (x['LOWINC'] ?? NaN) > 50);
  return [
    { tag: 'count', q: 'How many districts are there?', files: STAR, expect: { kind: 'number', value: d.length } },
    // AVSALK is already a per-district average salary; "average" across districts is its mean.
    // Needs the data set's documentation, not in the file: the teacher salary is `AVSALK`.
    { tag: 'docs', q: 'average teacher salary', files: STAR, expect: { kind: 'refuse' } },
    { tag: 'phrasing', q: 'typical pupil-teacher ratio', files: STAR, expect: { kind: 'number', value: median(col('PTRATIO')) } },
    // MATHTOT = number of 9th graders taking the math test; the column phrase itself holds "total".
    { tag: 'aggregate', q: 'sum of the math totals over all districts', files: STAR, expect: { kind: 'number', value: aggregate(col('MATHTOT'), 'sum') } },
    { tag: 'filter', q: 'How many districts have more than 50% low income students?', files: STAR, expect: { kind: 'number', value: poor.length } },
    // Needs the data set's documentation, not in the file: minority teachers are `PERMINTE`.
    { tag: 'docs', q: 'number of districts where under 10% of teachers are minorities', files: STAR, expect: { kind: 'refuse' } },
    // PERSPENK is in thousands of dollars.
    // Needs the data set's documentation, not in the file: spending per pupil is `PERSPENK`, in thousands.
    { tag: 'docs', q: 'how many districts spend more than $5,000 per pupil', files: STAR, expect: { kind: 'refuse' } },
    // Needs the data set's documentation, not in the file: the teacher salary is `AVSALK`.
    { tag: 'docs', q: 'How strongly are percent low income and teacher salary correlated?', files: STAR, expect: { kind: 'refuse' } },
    // Needs the data set's documentation, not in the file: the earlier question (teacher salary, `AVSALK`) cannot be read from the file.
    { tag: 'docs', q: 'now only for districts with more than 50% low income students', history: ['average teacher salary'], files: STAR, expect: { kind: 'refuse' } },
    { tag: 'refuse', q: "what's the graduation rate in these districts?", files: STAR, expect: { kind: 'refuse' } },
  ];
}

function anesCases(f: RealFiles): RealCase[] {
  const v = readAnes(f);
  const count = (p: (x: Row) => boolean): number => v.filter(p).length;
  const incomeByEduc = groupBy(v, (x) => x['educ'] ?? NaN, (x) => x['income'] ?? NaN, 'avg');
  const richest = extreme(Object.entries(incomeByEduc), ([, m]) => m);
  return [
    { tag: 'count', q: 'how many voters are in the survey', files: ANES, expect: { kind: 'number', value: v.length } },
    { tag: 'count', q: 'How many voters have education level 3?', files: ANES, expect: { kind: 'number', value: count((x) => x['educ'] === 3) } },
    { tag: 'phrasing', q: "what's the typical voter's age", files: ANES, expect: { kind: 'number', value: median(v.map((x) => x['age'] ?? NaN)) } },
    { tag: 'filter', q: 'how many voters watch TV news at least 5 times a week', files: ANES, expect: { kind: 'number', value: count((x) => (x['TVnews'] ?? NaN) >= 5) } },
    { tag: 'group', q: 'number of voters per education level', files: ANES, expect: { kind: 'groups', values: groupBy(v, (x) => x['educ'] ?? NaN, () => 1, 'count') } },
    // Needs the data set's documentation, not in the file: party identification is `PID`.
    { tag: 'docs', q: 'average age broken down by party identification', files: ANES, expect: { kind: 'refuse' } },
    { tag: 'rank', q: 'Which education level has the highest average income?', files: ANES, expect: { kind: 'pick', key: richest.row[0], value: richest.value } },
    { tag: 'followup', q: 'how many of those have an education level of 5 or more?', history: ['how many voters are over 60'], files: ANES, expect: { kind: 'number', value: count((x) => (x['age'] ?? NaN) > 60 && (x['educ'] ?? NaN) >= 5) } },
    // The vote column is 0/1; nothing in the file says which code is Clinton.
    { tag: 'refuse', q: 'How many voters said they would vote for Clinton?', files: ANES, expect: { kind: 'refuse' } },
    // income is a bracket code 1-24, not dollars.
    { tag: 'refuse', q: 'average household income in dollars', files: ANES, expect: { kind: 'refuse' } },
  ];
}

function scotCases(f: RealFiles): RealCase[] {
  const d = numeric(f.csv('scotvote.csv'), ['COUNCILDIST']);
  const col = (c: string): number[] => d.map((x) => x[c] ?? NaN);
  const yes = extreme(d, (x) => x['YES'] ?? NaN);
  const cheapest = extreme(d, (x) => x['COUTAX'] ?? NaN, 'min');
  const mortality = topStrict(Object.fromEntries(d.map((x) => [x.name, x['MOR'] ?? NaN])), 3);
  const pick = (name: string, c: string): number => one(d, name)[c] ?? NaN;
  return [
    // Needs the data set's documentation, not in the file: female unemployment is `UNEMPF`.
    { tag: 'docs', q: "What's Glasgow's female unemployment?", files: SCOT, expect: { kind: 'refuse' } },
    { tag: 'lookup', q: 'council tax in Fife', files: SCOT, expect: { kind: 'number', value: pick('Fife', 'COUTAX') } },
    { tag: 'rank', q: 'Which council district had the highest yes vote?', files: SCOT, expect: { kind: 'pick', key: yes.row.name, value: yes.value } },
    { tag: 'rank', q: 'lowest council tax', files: SCOT, expect: { kind: 'pick', key: cheapest.row.name, value: cheapest.value } },
    { tag: 'rank', q: 'top 3 districts by mortality rate', files: SCOT, expect: { kind: 'top', keys: mortality } },
    // Two districts sit exactly at 125: inclusive and strict differ.
    { tag: 'filter', q: 'how many districts have a mortality rate of at least 125', files: SCOT, expect: { kind: 'number', value: d.filter((x) => (x['MOR'] ?? NaN) >= 125).length } },
    { tag: 'phrasing', q: 'typical council tax', files: SCOT, expect: { kind: 'number', value: median(col('COUTAX')) } },
    { tag: 'correlation', q: 'How strongly are council tax and the yes vote correlated?', files: SCOT, expect: { kind: 'number', value: r(d, (x) => x['COUTAX'] ?? NaN, (x) => x['YES'] ?? NaN) } },
    { tag: 'followup', q: 'and for districts where the yes vote was over 65%?', history: ['average council tax'], files: SCOT, expect: { kind: 'number', value: avg(d.filter((x) => (x['YES'] ?? NaN) > 65).map((x) => x['COUTAX'] ?? NaN)) } },
    // AGE is the percent of children aged 5 to 15, not anyone's age: nothing in the file says so, so a
    // question about people's age cannot be told apart from one about the column; ask about the column.
    { tag: 'lookup', q: "what's the AGE figure for Fife", files: SCOT, expect: { kind: 'number', value: pick('Fife', 'AGE') } },
  ];
}

function committeeCases(f: RealFiles): RealCase[] {
  const d = numeric(f.csv('committee.csv'), ['COMMITTEE']);
  const count = (p: (x: Row) => boolean): number => d.filter(p).length;
  const staffed = extreme(d, (x) => x['STAFF'] ?? NaN);
  const big = d.filter((x) => (x['STAFF'] ?? NaN) > 50);
  const judiciary = one(d, 'Judiciary');
  if (judiciary['BILLS103'] === judiciary['BILLS104']) throw new Error('Judiciary bills do not differ');
  return [
    { tag: 'count', q: 'how many committees are there', files: COMM, expect: { kind: 'number', value: d.length } },
    { tag: 'lookup', q: 'How many staff does Appropriations have?', files: COMM, expect: { kind: 'number', value: one(d, 'Appropriations')['STAFF'] ?? NaN } },
    { tag: 'lookup', q: 'how many bills did Ways and Means get in the 104th House', files: COMM, expect: { kind: 'number', value: one(d, 'Ways_and_Means')['BILLS104'] ?? NaN } },
    { tag: 'rank', q: 'Which committee has the most staff?', files: COMM, expect: { kind: 'pick', key: staffed.row.name, value: staffed.value } },
    // Needs the data set's documentation, not in the file: the number of members is `SIZE`.
    { tag: 'docs', q: 'top 3 committees by number of members', files: COMM, expect: { kind: 'refuse' } },
    { tag: 'filter', q: 'how many committees have more than 50 staff?', files: COMM, expect: { kind: 'number', value: big.length } },
    // Six committees have exactly 5 subcommittees.
    { tag: 'filter', q: 'committees with at least 5 subcommittees - how many?', files: COMM, expect: { kind: 'number', value: count((x) => (x['SUBS'] ?? NaN) >= 5) } },
    { tag: 'group', q: 'average staff broken down by prestige', files: COMM, expect: { kind: 'groups', values: groupBy(d, (x) => x['PRESTIGE'] ?? NaN, (x) => x['STAFF'] ?? NaN, 'avg') } },
    { tag: 'followup', q: "what's their average number of bills in the 104th House?", history: ['how many committees have more than 50 staff?'], files: COMM, expect: { kind: 'number', value: avg(big.map((x) => x['BILLS104'] ?? NaN)) } },
    // 103rd or 104th House? Judiciary has different counts in each.
    { tag: 'refuse', q: 'How many bills did the Judiciary committee get?', files: COMM, expect: { kind: 'refuse' } },
  ];
}

function chinaCases(f: RealFiles): RealCase[] {
  const d = numeric(f.csv('china_smoking.csv'), ['Location']);
  const YY = 'smoking_yes_cancer_yes';
  const NY = 'smoking_no_cancer_yes';
  const worst = extreme(d, (x) => x[YY] ?? NaN);
  const beijing = one(d, 'Beijing');
  const cells = ['smoking_yes_cancer_yes', 'smoking_yes_cancer_no', 'smoking_no_cancer_yes', 'smoking_no_cancer_no'];
  return [
    { tag: 'lookup', q: 'How many smokers with lung cancer in Shanghai?', files: CHINA, expect: { kind: 'number', value: one(d, 'Shanghai')[YY] ?? NaN } },
    // The file spells Nanjing "Nanjng".
    { tag: 'lookup', q: "Nanjing's number of non-smokers without cancer", files: CHINA, expect: { kind: 'number', value: one(d, 'Nanjng')['smoking_no_cancer_no'] ?? NaN } },
    { tag: 'rank', q: 'which city has the most smokers with cancer', files: CHINA, expect: { kind: 'pick', key: worst.row.name, value: worst.value } },
    { tag: 'rank', q: 'top 3 cities by number of non-smokers with lung cancer', files: CHINA, expect: { kind: 'top', keys: topStrict(Object.fromEntries(d.map((x) => [x.name, x[NY] ?? NaN])), 3) } },
    { tag: 'aggregate', q: 'total smokers with lung cancer across all cities', files: CHINA, expect: { kind: 'number', value: aggregate(d.map((x) => x[YY] ?? NaN), 'sum') } },
    // Everyone counted in Beijing: the four cells of its 2x2 table.
    { tag: 'aggregate', q: 'how many people were surveyed in Beijing in total', files: CHINA, expect: { kind: 'number', value: cells.reduce((s, c) => s + (beijing[c] ?? NaN), 0) } },
    { tag: 'refuse', q: 'how many of the lung cancer patients died?', files: CHINA, expect: { kind: 'refuse' } },
  ];
}

function heartCases(f: RealFiles): RealCase[] {
  const d = numeric(f.csv('heart.csv'));
  const surv = d.map((x) => x['survival'] ?? NaN);
  const oldest = extreme(d, (x) => x['age'] ?? NaN);
  const over50 = d.filter((x) => (x['age'] ?? NaN) > 50);
  return [
    { tag: 'count', q: 'How many patients are there?', files: HEART, expect: { kind: 'number', value: d.length } },
    { tag: 'aggregate', q: 'average survival time', files: HEART, expect: { kind: 'number', value: avg(surv) } },
    { tag: 'phrasing', q: "what's the typical survival time?", files: HEART, expect: { kind: 'number', value: median(surv) } },
    { tag: 'filter', q: 'how many patients survived more than 1000 days', files: HEART, expect: { kind: 'number', value: surv.filter((s) => s > 1000).length } },
    { tag: 'rank', q: 'how long did the oldest patient survive?', files: HEART, expect: { kind: 'number', value: oldest.row['survival'] ?? NaN } },
    { tag: 'correlation', q: 'How strongly are age and survival time correlated?', files: HEART, expect: { kind: 'number', value: r(d, (x) => x['age'] ?? NaN, (x) => x['survival'] ?? NaN) } },
    { tag: 'followup', q: "what's their average survival time", history: ['how many patients are older than 50?'], files: HEART, expect: { kind: 'number', value: avg(over50.map((x) => x['survival'] ?? NaN)) } },
    { tag: 'refuse', q: 'what was the most common cause of death', files: HEART, expect: { kind: 'refuse' } },
  ];
}

function modeCases(f: RealFiles): RealCase[] {
  const d = numeric(f.csv('modechoice.csv', ';'));
  const chosen = d.filter((x) => x['choice'] === 1);
  const travellers = new Set(d.map((x) => x['individual'])).size;
  if (chosen.length !== travellers) throw new Error('expected one chosen mode per traveller');
  const timesChosen = groupBy(chosen, (x) => x['mode'] ?? NaN, () => 1, 'count');
  const favourite = extreme(Object.entries(timesChosen), ([, n]) => n);
  return [
    // 840 rows, but each traveller has 4 rows (one per mode).
    // Travellers are people (WordNet), and the repeated `individual` names each of them: counted once each.
    // (Refused before the data shape was read at ingest; the file holds the answer.)
    { tag: 'docs', q: 'how many travellers are there?', files: MODE, expect: { kind: 'number', value: travellers } },
    // A chosen mode is the yes/no `choice` the verb "chose" names, one per traveller.
    { tag: 'docs', q: 'How many travellers chose mode 1?', files: MODE, expect: { kind: 'number', value: timesChosen[1] ?? NaN } },
    { tag: 'rank', q: 'which mode was chosen most often', files: MODE, expect: { kind: 'pick', key: favourite.row[0], value: favourite.value } },
    // Needs the data set's documentation, not in the file: travel time is `invt` (in vehicle) or `ttme` (at the terminal).
    { tag: 'docs', q: 'average travel time per mode', files: MODE, expect: { kind: 'refuse' } },
    // Needs the data set's documentation, not in the file: the in-vehicle cost is `invc`.
    { tag: 'docs', q: 'avg in-vehicle cost for mode 2', files: MODE, expect: { kind: 'refuse' } },
    // Every traveller has four rows, so the average over rows is the average over travellers.
    { tag: 'docs', q: 'average household income of the travellers', files: MODE, expect: { kind: 'number', value: avg(d.map((x) => x['hinc'] ?? NaN)) } },
    // Needs the data set's documentation, not in the file: travel time is `invt` or `ttme`, generalized cost is `gc`.
    { tag: 'docs', q: 'how strongly are travel time and generalized cost correlated', files: MODE, expect: { kind: 'refuse' } },
    // "their": the travellers who chose mode 4, one row each.
    { tag: 'docs', q: 'what was their average household income?', history: ['how many travellers chose mode 4'], files: MODE, expect: { kind: 'number', value: avg(chosen.filter((x) => x['mode'] === 4).map((x) => x['hinc'] ?? NaN)) } },
    // In-vehicle cost or generalized cost? Their means differ a lot.
    { tag: 'refuse', q: 'average cost', files: MODE, expect: { kind: 'refuse' } },
  ];
}

export function validationACases(f: RealFiles): RealCase[] {
  return [...starCases(f), ...anesCases(f), ...scotCases(f), ...committeeCases(f), ...chinaCases(f), ...heartCases(f), ...modeCases(f)];
}
