/** Accuracy cases on the IoT time series (hourly timestamps, devices, sites, a few temperature spikes). */
import type { Reading } from './datasets';
import { aggregate, groupBy, pearson, topKeys, tukeyOutliers, type Case } from './expect';

const F = ['iot.csv'];

export function iotCases(r: readonly Reading[]): Case[] {
  const temp = (x: Reading): number => x.temperature_c;
  const hum = (x: Reading): number => x.humidity_pct;
  const day = (x: Reading): string => x.ts.slice(0, 10);
  const hourKey = (x: Reading): string => `${x.ts.slice(0, 10)}T${x.ts.slice(11, 13)}:00:00`;
  return [
    { q: 'Average temperature by site', files: F, expect: { kind: 'groups', values: groupBy(r, (x) => x.site, temp, 'avg') } },
    { q: 'Hourly average temperature for sensor-03 on 2024-05-10', files: F, expect: { kind: 'groups', values: groupBy(r.filter((x) => x.device === 'sensor-03' && day(x) === '2024-05-10'), hourKey, temp, 'avg') } },
    { q: 'Daily average humidity in the Warehouse', files: F, expect: { kind: 'groups', values: groupBy(r.filter((x) => x.site === 'Warehouse'), day, hum, 'avg') } },
    { q: 'Maximum temperature per device', files: F, expect: { kind: 'groups', values: groupBy(r, (x) => x.device, temp, 'max') } },
    { q: 'How many readings had a temperature above 50?', files: F, expect: { kind: 'scalar', value: r.filter((x) => x.temperature_c > 50).length } },
    { q: 'Which device has the lowest battery?', files: F, expect: { kind: 'ranked', keys: topKeys(groupBy(r, (x) => x.device, (x) => x.battery, 'avg'), 1, 'asc') } },
    { q: 'Average humidity in the Office', files: F, expect: { kind: 'scalar', value: aggregate(r.filter((x) => x.site === 'Office').map(hum), 'avg') } },
    { q: 'Temperature trend for the Lab', files: F, expect: { kind: 'groups', values: groupBy(r.filter((x) => x.site === 'Lab'), day, temp, 'avg') } },
    { q: 'Is temperature correlated with humidity?', files: F, expect: { kind: 'scalar', column: 'correlation', value: pearson(r.map(temp), r.map(hum)) } },
    {
      q: 'Are there outliers in temperature?', files: F,
      expect: { kind: 'custom', check: (a) => {
        const t = a.tables[a.tables.length - 1];
        const h = t?.[0] ?? [];
        const got = Number(t?.[1]?.[h.indexOf('outliers')]);
        const want = tukeyOutliers(r.map(temp));
        return got === want ? undefined : `expected ${want} outliers, got ${got}`;
      } },
    },
    { q: 'Number of readings per site', files: F, expect: { kind: 'groups', values: groupBy(r, (x) => x.site, temp, 'count') } },
    { q: 'Average battery level per day for sensor-01', files: F, expect: { kind: 'groups', values: groupBy(r.filter((x) => x.device === 'sensor-01'), day, (x) => x.battery, 'avg') } },
    { q: 'Minimum humidity on 2024-05-15', files: F, expect: { kind: 'scalar', value: aggregate(r.filter((x) => day(x) === '2024-05-15').map(hum), 'min') } },
    { q: 'Average temperature between 2024-05-10 and 2024-05-12', files: F, expect: { kind: 'scalar', value: aggregate(r.filter((x) => day(x) >= '2024-05-10' && day(x) <= '2024-05-12').map(temp), 'avg') } },
    { q: 'Peak temperature by site', files: F, expect: { kind: 'groups', values: groupBy(r, (x) => x.site, temp, 'max') } },
    { q: 'Daily max temperature', files: F, expect: { kind: 'groups', values: groupBy(r, day, temp, 'max') } },
    { q: 'How many devices are there?', files: F, expect: { kind: 'scalar', value: 6 } },
    { q: 'average temperature by hour of day', files: F, expect: { kind: 'groups', values: groupBy(r, (x) => Number(x.ts.slice(11, 13)), temp, 'avg') } },
    { q: 'what was the hottest reading', files: F, expect: { kind: 'rows', column: 'temperature_c', values: [String(aggregate(r.map(temp), 'max'))], ordered: true } },
    { q: 'which site is the warmest', files: F, expect: { kind: 'ranked', keys: topKeys(groupBy(r, (x) => x.site, temp, 'avg'), 1) } },
    {
      q: 'average temperature on 2024-05-31', files: F,
      expect: { kind: 'custom', check: (a) => (/No rows match/.test(a.message) ? undefined : `expected "No rows match", got ${a.message.slice(0, 80)}`) },
    },
    { q: 'What is the average wind speed?', files: F, expect: { kind: 'unanswerable' } },
  ];
}
