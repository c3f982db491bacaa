/** Accuracy cases over two files joined by customer_id (orders + customers), dates as "Mar 05, 2024" and MM/DD/YYYY. */
import type { Customer, Order } from './datasets';
import { aggregate, groupBy, monthOf, topKeys, type Case } from './expect';

const BOTH = ['orders.csv', 'customers.csv'];

export function shopCases(orders: readonly Order[], customers: readonly Customer[]): Case[] {
  const byId = new Map(customers.map((c) => [c.customer_id, c]));
  const seg = (o: Order): string => byId.get(o.customer_id)?.segment ?? '';
  const country = (o: Order): string => byId.get(o.customer_id)?.country ?? '';
  const amt = (o: Order): number => o.amount;
  return [
    { q: 'Total amount by segment', files: BOTH, expect: { kind: 'groups', values: groupBy(orders, seg, amt, 'sum') } },
    { q: 'Number of orders by country', files: BOTH, expect: { kind: 'groups', values: groupBy(orders, country, amt, 'count') } },
    { q: 'Average order amount for Corporate customers', files: BOTH, expect: { kind: 'scalar', value: aggregate(orders.filter((o) => seg(o) === 'Corporate').map(amt), 'avg') } },
    { q: 'How many customers signed up in 2022?', files: BOTH, expect: { kind: 'scalar', value: customers.filter((c) => c.signupIso.startsWith('2022')).length } },
    { q: 'Top 5 customers by total amount', files: BOTH, expect: { kind: 'ranked', keys: topKeys(groupBy(orders, (o) => o.customer_id, amt, 'sum'), 5) } },
    { q: 'Revenue by status', files: BOTH, expect: { kind: 'groups', values: groupBy(orders, (o) => o.status, amt, 'sum') } },
    { q: 'Share of orders by status', files: BOTH, expect: { kind: 'groups', column: 'share_pct', values: Object.fromEntries(Object.entries(groupBy(orders, (o) => o.status, amt, 'count')).map(([k, v]) => [k, (100 * v) / orders.length])) } },
    { q: 'Monthly order amount in 2024', files: BOTH, expect: { kind: 'groups', values: groupBy(orders, (o) => monthOf(o.dateIso), amt, 'sum') } },
    { q: 'Average items per order by segment', files: BOTH, expect: { kind: 'groups', values: groupBy(orders, seg, (o) => o.items, 'avg') } },
    { q: 'How many orders were cancelled?', files: BOTH, expect: { kind: 'scalar', value: orders.filter((o) => o.status === 'cancelled').length } },
    { q: 'Which country has the most customers?', files: BOTH, expect: { kind: 'ranked', keys: topKeys(groupBy(customers, (c) => c.country, () => 1, 'count'), 1) } },
    { q: 'Total amount of shipped orders from Germany', files: BOTH, expect: { kind: 'scalar', value: aggregate(orders.filter((o) => o.status === 'shipped' && country(o) === 'Germany').map(amt), 'sum') } },
    { q: 'Average amount by segment and status', files: BOTH, expect: { kind: 'groups', dims: 2, values: groupBy(orders, (o) => `${seg(o)} | ${o.status}`, amt, 'avg') } },
    { q: 'Show orders over 450', files: BOTH, expect: { kind: 'rows', column: 'order_id', values: orders.filter((o) => o.amount > 450).map((o) => o.order_id), ordered: false } },
    { q: 'Which segment spends the most?', files: BOTH, expect: { kind: 'ranked', keys: topKeys(groupBy(orders, seg, amt, 'sum'), 1) } },
    { q: 'average order amount per customer segment', files: BOTH, expect: { kind: 'groups', values: groupBy(orders, seg, amt, 'avg') } },
    { q: 'which customers have not ordered', files: BOTH, expect: { kind: 'rows', column: 'customer_id', values: customers.filter((c) => !orders.some((o) => o.customer_id === c.customer_id)).map((c) => c.customer_id).slice(0, 20), ordered: false } },
    { q: 'how many customers have never placed an order', files: BOTH, expect: { kind: 'scalar', value: customers.filter((c) => !orders.some((o) => o.customer_id === c.customer_id)).length } },
    { q: 'total amount by signup year', files: BOTH, expect: { kind: 'groups', values: groupBy(orders, (o) => byId.get(o.customer_id)?.signupIso.slice(0, 4) ?? '', amt, 'sum') } },
    { q: 'Which supplier delivers fastest?', files: BOTH, expect: { kind: 'unanswerable' } },
  ];
}
