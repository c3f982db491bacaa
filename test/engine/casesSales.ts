/** Accuracy cases on the generated sales file (dates, regions, channels, nulls in channel/discount). */
import type { Sale } from './datasets';
import { aggregate, groupBy, monthOf, pearson, quarterOf, topKeys, type Case } from './expect';

const F = ['sales.csv'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

export function salesCases(s: readonly Sale[]): Case[] {
  const y = (yr: string): Sale[] => s.filter((x) => x.order_date.startsWith(yr));
  const rev = (x: Sale): number => x.revenue;
  const sum = (rows: readonly Sale[], f: (x: Sale) => number | null = rev): number => aggregate(rows.map(f), 'sum');
  const byRegion = groupBy(s, (x) => x.region, rev, 'sum');
  const top2024Countries = topKeys(groupBy(y('2024'), (x) => x.country, rev, 'sum'), 5);
  const online = s.filter((x) => x.channel === 'online');
  const mostUnits = topKeys(groupBy(s, (x) => x.product, (x) => x.quantity, 'sum'), 1);
  const channelShare = groupBy(s, (x) => x.channel, rev, 'sum');
  const total = sum(s);
  const shares = Object.fromEntries(Object.entries(channelShare).map(([k, v]) => [k, (100 * v) / total]));
  const revSorted = [...s].sort((a, b) => b.revenue - a.revenue).slice(0, 5).map((x) => String(x.revenue));
  const q3 = s.filter((x) => x.order_date >= '2023-07-01' && x.order_date < '2023-10-01');
  const noAfrica = s.filter((x) => x.region !== 'Africa');
  return [
    { q: 'What is the total revenue?', files: F, expect: { kind: 'scalar', value: total } },
    { q: 'How many orders are there?', files: F, expect: { kind: 'scalar', value: s.length } },
    { q: 'Total revenue by region', files: F, expect: { kind: 'groups', values: byRegion } },
    { q: 'average order value by region', files: F, expect: { kind: 'groups', values: groupBy(s, (x) => x.region, rev, 'avg') } },
    { q: 'top 5 countries by revenue in 2024', files: F, expect: { kind: 'ranked', keys: top2024Countries } },
    { q: 'How many orders came from Europe?', files: F, expect: { kind: 'scalar', value: s.filter((x) => x.region === 'Europe').length } },
    { q: 'Revenue by channel in Q3 2023', files: F, expect: { kind: 'groups', values: groupBy(q3, (x) => x.channel, rev, 'sum') } },
    { q: 'Monthly revenue trend in 2024', files: F, expect: { kind: 'groups', values: groupBy(y('2024'), (x) => monthOf(x.order_date), rev, 'sum') } },
    { q: 'Which product sold the most units?', files: F, expect: { kind: 'ranked', keys: mostUnits } },
    { q: 'Median unit price by category', files: F, expect: { kind: 'groups', values: groupBy(s, (x) => x.category, (x) => x.unit_price, 'median') } },
    { q: 'How many distinct customers bought online?', files: F, expect: { kind: 'scalar', value: aggregate(online.map((x) => x.customer_id), 'countDistinct') } },
    { q: 'What share of revenue comes from each channel?', files: F, expect: { kind: 'groups', values: shares, column: 'share_pct' } },
    { q: 'What percentage of orders are online?', files: F, expect: { kind: 'scalar', value: (100 * online.length) / s.length, column: 'share_pct' } },
    { q: 'Average discount for orders over 500', files: F, expect: { kind: 'scalar', value: aggregate(s.filter((x) => x.revenue > 500).map((x) => x.discount), 'avg') } },
    { q: 'Total quantity by category and channel', files: F, expect: { kind: 'groups', dims: 2, values: groupBy(s, (x) => `${x.category} | ${x.channel ?? ''}`, (x) => x.quantity, 'sum') } },
    { q: 'What is the highest unit price?', files: F, expect: { kind: 'scalar', column: 'unit_price', value: aggregate(s.map((x) => x.unit_price), 'max') } },
    { q: 'Which product has the lowest average unit price?', files: F, expect: { kind: 'ranked', keys: topKeys(groupBy(s, (x) => x.product, (x) => x.unit_price, 'avg'), 1, 'asc') } },
    { q: 'How many orders had revenue between 100 and 200?', files: F, expect: { kind: 'scalar', value: s.filter((x) => x.revenue >= 100 && x.revenue <= 200).length } },
    { q: 'Revenue in March 2024', files: F, expect: { kind: 'scalar', value: sum(s.filter((x) => x.order_date.startsWith('2024-03'))) } },
    { q: 'total revenue since July 2024', files: F, expect: { kind: 'scalar', value: sum(s.filter((x) => x.order_date >= '2024-07-01')) } },
    { q: 'Number of orders per region excluding Africa', files: F, expect: { kind: 'groups', values: groupBy(noAfrica, (x) => x.region, rev, 'count') } },
    { q: 'Compare revenue of online and retail', files: F, expect: { kind: 'groups', values: { online: sum(online), retail: sum(s.filter((x) => x.channel === 'retail')) } } },
    { q: 'Revenue in Asia by quarter', files: F, expect: { kind: 'groups', values: groupBy(s.filter((x) => x.region === 'Asia'), (x) => quarterOf(x.order_date), rev, 'sum') } },
    { q: 'Bottom 3 products by revenue', files: F, expect: { kind: 'ranked', keys: topKeys(groupBy(s, (x) => x.product, rev, 'sum'), 3, 'asc') } },
    { q: 'Average quantity per order in North America', files: F, expect: { kind: 'scalar', value: aggregate(s.filter((x) => x.region === 'North America').map((x) => x.quantity), 'avg') } },
    {
      q: 'Which columns have missing values?', files: F,
      expect: { kind: 'groups', column: 'missing_values', values: {
        order_id: 0, order_date: 0, region: 0, country: 0, channel: s.filter((x) => x.channel === null).length, product: 0, category: 0,
        quantity: 0, unit_price: 0, discount: s.filter((x) => x.discount === null).length, revenue: 0, customer_id: 0,
      } },
    },
    { q: 'Is unit price correlated with revenue?', files: F, expect: { kind: 'scalar', column: 'correlation', value: pearson(s.map((x) => x.unit_price), s.map(rev)) } },
    { q: 'Distribution of revenue', files: F, expect: { kind: 'histogram', total: s.length, min: aggregate(s.map(rev), 'min'), max: aggregate(s.map(rev), 'max') } },
    { q: 'Show the 5 largest orders by revenue', files: F, expect: { kind: 'rows', column: 'revenue', values: revSorted, ordered: true } },
    { q: 'Total revenue for Rain Jacket in 2023', files: F, expect: { kind: 'scalar', value: sum(y('2023').filter((x) => x.product === 'Rain Jacket')) } },
    { q: 'revenue by year', files: F, expect: { kind: 'groups', values: groupBy(s, (x) => x.order_date.slice(0, 4), rev, 'sum') } },
    { q: 'now only for 2024', files: F, history: ['Total revenue by region'], expect: { kind: 'groups', values: groupBy(y('2024'), (x) => x.region, rev, 'sum') } },
    { q: 'and by channel?', files: F, history: ['Total revenue by region'], expect: { kind: 'groups', dims: 2, values: groupBy(s, (x) => `${x.region} | ${x.channel ?? ''}`, rev, 'sum') } },
    { q: 'what about Asia?', files: F, history: ['Total revenue by region in 2023'], expect: { kind: 'groups', values: { Asia: sum(y('2023').filter((x) => x.region === 'Asia')) } } },
    {
      q: 'show it as a table', files: F, history: ['Average unit price by category'],
      expect: {
        kind: 'custom', check: (a) => {
          if (a.images.length > 0) return 'a table-only answer must not draw a chart';
          const t = a.tables[0];
          return t && t.length === 5 ? undefined : `expected 4 categories, got ${t ? t.length - 1 : 'no table'}`;
        },
      },
    },
    // Phrasings written after the engine was tuned on the questions above (a held-out check).
    { q: 'whats the avg revenue per order', files: F, expect: { kind: 'scalar', value: aggregate(s.map(rev), 'avg') } },
    { q: 'How much revenue did we make online?', files: F, expect: { kind: 'scalar', value: sum(online) } },
    { q: 'number of unique products', files: F, expect: { kind: 'scalar', value: new Set(s.map((x) => x.product)).size } },
    { q: 'how many orders had no discount', files: F, expect: { kind: 'scalar', value: s.filter((x) => !x.discount).length } },
    { q: 'revenue for Germany and France', files: F, expect: { kind: 'groups', values: { Germany: sum(s.filter((x) => x.country === 'Germany')), France: sum(s.filter((x) => x.country === 'France')) } } },
    { q: 'how many orders in 2024 vs 2023', files: F, expect: { kind: 'groups', values: { 2023: y('2023').length, 2024: y('2024').length } } },
    { q: 'revenue by weekday', files: F, expect: { kind: 'groups', values: groupBy(s, (x) => DAYS[new Date(`${x.order_date}T00:00:00Z`).getUTCDay()] ?? '', rev, 'sum') } },
    { q: 'biggest order', files: F, expect: { kind: 'rows', column: 'revenue', values: revSorted.slice(0, 1), ordered: true } },
    { q: 'which region generated the least revenue in 2023?', files: F, expect: { kind: 'ranked', keys: topKeys(groupBy(y('2023'), (x) => x.region, rev, 'sum'), 1, 'asc') } },
    {
      q: 'orders with a discount of 20%', files: F,
      expect: { kind: 'custom', check: (a) => {
        const n = s.filter((x) => x.discount === 0.2).length;
        return a.message.includes(`**${n.toLocaleString('en-US')}** rows match`) ? undefined : `expected ${n} matching rows: ${a.message.slice(0, 80)}`;
      } },
    },
    { q: 'which products did not sell in 2024', files: F, expect: { kind: 'unanswerable' } },
    { q: 'What is the average profit margin by region?', files: F, expect: { kind: 'unanswerable' } },
    { q: 'How many employees work in Europe?', files: F, expect: { kind: 'unanswerable' } },
    { q: 'Revenue in Antarctica', files: F, expect: { kind: 'unanswerable' } },
    { q: 'What will revenue be next year?', files: F, expect: { kind: 'unanswerable' } },
    { q: 'Total revenue by salesperson', files: F, expect: { kind: 'unanswerable' } },
  ];
}
