/** Accuracy cases on the people file: nulls, "n/a" in a numeric column, day-first dates, mixed date formats, duplicates. */
import { startIso, type Person } from './datasets';
import { aggregate, groupBy, topKeys, tukeyOutliers, type Case } from './expect';

const F = ['people.csv'];

export function peopleCases(p: readonly Person[]): Case[] {
  const age = (x: Person): number | null => x.age;
  const sal = (x: Person): number | null => x.salary;
  const dept = (x: Person): string | null => x.department;
  const salaries = p.map(sal).filter((v): v is number => v !== null);
  const missing = {
    person_id: 0, full_name: 0, department: p.filter((x) => x.department === null).length,
    // "n/a" written in the age column is a missing age too (numbers written as text; see missingMarkers.ts).
    age: p.filter((x) => x.ageText === '' || x.ageText === 'n/a').length, salary: p.filter((x) => x.salary === null).length, city: 0,
    email: p.filter((x) => x.email === null).length, start_date: 0, remote: 0, rating: p.filter((x) => x.rating === null).length,
    last_review: p.filter((x) => x.last_review === null).length,
  };
  return [
    { q: 'Average age by department', files: F, expect: { kind: 'groups', values: groupBy(p, dept, age, 'avg') } },
    { q: 'How many people work in Engineering?', files: F, expect: { kind: 'scalar', value: p.filter((x) => x.department === 'Engineering').length } },
    { q: 'How many people have a missing email?', files: F, expect: { kind: 'scalar', column: 'missing_values', value: missing.email } },
    { q: 'Which columns have missing values?', files: F, expect: { kind: 'groups', column: 'missing_values', values: missing } },
    {
      q: 'Are there duplicate rows?', files: F,
      expect: {
        kind: 'custom', check: (a) => {
          const t = a.tables[a.tables.length - 1];
          if (!t) return 'no table';
          const ci = (t[0] ?? []).indexOf('copies');
          const extra = t.slice(1).reduce((s, r) => s + Number(r[ci]) - 1, 0);
          if (extra !== 3) return `expected 3 repeated rows, the table shows ${extra}`;
          return /\*\*3\*\* rows repeat/.test(a.message) ? undefined : `message does not state 3 duplicates: ${a.message.slice(0, 100)}`;
        },
      },
    },
    { q: 'Average salary by city', files: F, expect: { kind: 'groups', values: groupBy(p, (x) => x.city, sal, 'avg') } },
    { q: 'Median salary in Sales', files: F, expect: { kind: 'scalar', value: aggregate(p.filter((x) => x.department === 'Sales').map(sal), 'median') } },
    { q: 'How many remote employees are there?', files: F, expect: { kind: 'scalar', value: aggregate(p.filter((x) => x.remote).map((x) => x.person_id), 'countDistinct') } },
    { q: 'Average rating grouped by remote', files: F, expect: { kind: 'groups', values: groupBy(p, (x) => String(x.remote), (x) => x.rating, 'avg') } },
    { q: 'What is the maximum age?', files: F, expect: { kind: 'scalar', value: aggregate(p.map(age), 'max') } },
    { q: 'How many people started in 2020?', files: F, expect: { kind: 'scalar', value: p.filter((x) => startIso(x).startsWith('2020')).length } },
    { q: 'How many people started each year?', files: F, expect: { kind: 'groups', values: groupBy(p, (x) => startIso(x).slice(0, 4), age, 'count') } },
    { q: 'Average salary of people older than 40', files: F, expect: { kind: 'scalar', value: aggregate(p.filter((x) => x.age !== null && x.age > 40).map(sal), 'avg') } },
    { q: 'How many reviews happened in 2024?', files: F, expect: { kind: 'scalar', value: p.filter((x) => x.reviewIso?.startsWith('2024')).length } },
    { q: 'Average age in Berlin', files: F, expect: { kind: 'scalar', value: aggregate(p.filter((x) => x.city === 'Berlin').map(age), 'avg') } },
    {
      q: 'Are there outliers in salary?', files: F,
      expect: { kind: 'custom', check: (a) => {
        const t = a.tables[a.tables.length - 1];
        const h = t?.[0] ?? [];
        const got = Number(t?.[1]?.[h.indexOf('outliers')]);
        const want = tukeyOutliers(salaries);
        return got === want ? undefined : `expected ${want} outliers, got ${got}`;
      } },
    },
    { q: 'salary distribution', files: F, expect: { kind: 'histogram', total: salaries.length, min: Math.min(...salaries), max: Math.max(...salaries) } },
    { q: 'Which department has the highest average salary?', files: F, expect: { kind: 'ranked', keys: topKeys(groupBy(p, dept, sal, 'avg'), 1) } },
    { q: 'Count of people per city', files: F, expect: { kind: 'groups', values: groupBy(p, (x) => x.city, sal, 'count') } },
    { q: 'What is the average age?', files: F, expect: { kind: 'scalar', value: aggregate(p.map(age), 'avg') } },
    { q: 'what is the median age of remote people', files: F, expect: { kind: 'scalar', value: aggregate(p.filter((x) => x.remote).map(age), 'median') } },
    { q: 'average salary for remote vs office', files: F, expect: { kind: 'groups', values: groupBy(p, (x) => String(x.remote), sal, 'avg') } },
    { q: 'who earns the most', files: F, expect: { kind: 'rows', column: 'salary', values: [String(Math.max(...salaries))], ordered: true } },
    { q: 'average age of people without email', files: F, expect: { kind: 'scalar', value: aggregate(p.filter((x) => x.email === null).map(age), 'avg') } },
    { q: 'Total bonus by department', files: F, expect: { kind: 'unanswerable' } },
  ];
}
