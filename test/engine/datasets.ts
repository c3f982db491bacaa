/**
 * Generated datasets for the engine's accuracy suite. Rows are plain TypeScript objects, written to
 * CSV exactly as a messy export would be (nulls as empty fields, mixed types, several date formats,
 * non-ASCII headers), and the same objects are what the expected answers are computed from.
 */

import { seededRandom } from '../helpers/seededRandom';

export const rng = seededRandom;

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
const round2 = (x: number): number => Math.round(x * 100) / 100;
const MON = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A CSV field: empty for null, quoted when needed. */
function field(v: string | number | boolean | null): string {
  if (v === null) return '';
  const s = String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsvText(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number | boolean | null>>): string {
  return `${header.map(field).join(',')}\n${rows.map((r) => r.map(field).join(',')).join('\n')}\n`;
}

function isoDay(r: () => number, from: number, days: number): string {
  return new Date(from + Math.floor(r() * days) * 86_400_000).toISOString().slice(0, 10);
}

// ---------- sales ----------
export interface Sale {
  order_id: number; order_date: string; region: string; country: string; channel: string | null; product: string;
  category: string; quantity: number; unit_price: number; discount: number | null; revenue: number; customer_id: string;
}
export const REGIONS: Record<string, string[]> = {
  Europe: ['Germany', 'France', 'Italy', 'Spain'], Asia: ['Japan', 'India', 'Singapore'], 'North America': ['United States', 'Canada', 'Mexico'],
  'South America': ['Brazil', 'Chile'], Africa: ['Kenya', 'Nigeria'],
};
const PRODUCTS: Array<[string, string, number]> = [
  ['Trail Shoes', 'Footwear', 89], ['City Sneakers', 'Footwear', 65], ['Rain Jacket', 'Apparel', 120], ['Wool Sweater', 'Apparel', 75],
  ['Headlamp', 'Equipment', 29.5], ['Tent 2P', 'Equipment', 240], ['Daypack 20L', 'Accessories', 55], ['Water Bottle', 'Accessories', 15],
];

export function makeSales(n = 2000): Sale[] {
  const r = rng(11);
  const out: Sale[] = [];
  const regions = Object.keys(REGIONS);
  for (let i = 1; i <= n; i++) {
    const region = regions[Math.min(regions.length - 1, Math.floor(r() * r() * regions.length * 1.6))] as string;
    const [product, category, base] = pick(r, PRODUCTS);
    const quantity = 1 + Math.floor(r() * 8);
    const unit_price = round2(base * (0.9 + r() * 0.2));
    const discount = r() < 0.03 ? null : pick(r, [0, 0, 0, 0.05, 0.1, 0.2]);
    out.push({
      order_id: 10000 + i, order_date: isoDay(r, Date.UTC(2023, 0, 1), 731), region, country: pick(r, REGIONS[region] ?? []),
      channel: r() < 0.02 ? null : pick(r, ['online', 'online', 'retail', 'partner']), product, category, quantity, unit_price,
      discount, revenue: round2(quantity * unit_price * (1 - (discount ?? 0))), customer_id: `C${pad(1 + Math.floor(r() * 300), 4)}`,
    });
  }
  return out;
}

export function salesCsv(rows: readonly Sale[]): string {
  const h = ['order_id', 'order_date', 'region', 'country', 'channel', 'product', 'category', 'quantity', 'unit_price', 'discount', 'revenue', 'customer_id'] as const;
  return toCsvText(h, rows.map((x) => h.map((k) => x[k])));
}

// ---------- people (nulls, mixed types, two date formats in one column) ----------
export interface Person {
  person_id: number; full_name: string; department: string | null; age: number | null; ageText: string; salary: number | null;
  city: string; email: string | null; start_date: string; remote: boolean; rating: number | null; last_review: string | null;
  /** ISO form of last_review. */
  reviewIso: string | null;
}
const FIRST = ['Ana', 'Ben', 'Chloé', 'Dev', 'Eva', 'Finn', 'Gia', 'Hugo', 'Ines', 'Jon', 'Kai', 'Lea', 'Mo', 'Nia', 'Omar', 'Pia'];
const LAST = ['Smith', 'Müller', 'García', 'Rossi', 'Dubois', 'Khan', 'Sato', 'Novak', 'Silva', 'Berg'];

export function makePeople(n = 500): Person[] {
  const r = rng(22);
  const out: Person[] = [];
  for (let i = 1; i <= n; i++) {
    const dept = r() < 0.04 ? null : pick(r, ['Engineering', 'Engineering', 'Sales', 'Marketing', 'Finance', 'HR']);
    const u = r();
    const age = u < 0.05 ? null : u < 0.08 ? null : 22 + Math.floor(r() * 43);
    const ageText = u < 0.05 ? 'n/a' : u < 0.08 ? '' : String(age);
    const start = new Date(Date.UTC(2012, 0, 1) + Math.floor(r() * 4000) * 86_400_000);
    const salaryBase = dept === 'Engineering' ? 85000 : dept === 'Sales' ? 60000 : dept === 'Finance' ? 72000 : 55000;
    const rv = r() < 0.05 ? null : new Date(Date.UTC(2023, 0, 1) + Math.floor(r() * 700) * 86_400_000);
    const reviewIso = rv ? rv.toISOString().slice(0, 10) : null;
    const last_review = rv ? (r() < 0.5 ? reviewIso : `${pad(rv.getUTCDate())} ${MON[rv.getUTCMonth()]} ${rv.getUTCFullYear()}`) : null;
    out.push({
      person_id: i, full_name: `${pick(r, FIRST)} ${pick(r, LAST)}`, department: dept, age, ageText,
      salary: r() < 0.04 ? null : Math.round((salaryBase + r() * 30000) / 100) * 100, city: pick(r, ['Berlin', 'Paris', 'London', 'Madrid', 'Rome']),
      email: r() < 0.1 ? null : `p${i}@example.com`, start_date: `${pad(start.getUTCDate())}.${pad(start.getUTCMonth() + 1)}.${start.getUTCFullYear()}`,
      remote: r() < 0.35, rating: r() < 0.06 ? null : 1 + Math.floor(r() * 5), last_review, reviewIso,
    });
  }
  // Three exact duplicates of earlier rows (a classic export glitch).
  out.push({ ...(out[4] as Person) }, { ...(out[9] as Person) }, { ...(out[9] as Person) });
  return out;
}

export function peopleCsv(rows: readonly Person[]): string {
  const h = ['person_id', 'full_name', 'department', 'age', 'salary', 'city', 'email', 'start_date', 'remote', 'rating', 'last_review'];
  return toCsvText(h, rows.map((p) => [p.person_id, p.full_name, p.department, p.ageText === '' ? null : p.ageText, p.salary, p.city, p.email, p.start_date, p.remote, p.rating, p.last_review]));
}

/** ISO date of a dd.mm.yyyy start date. */
export const startIso = (p: Person): string => `${p.start_date.slice(6)}-${p.start_date.slice(3, 5)}-${p.start_date.slice(0, 2)}`;

// ---------- IoT time series ----------
export interface Reading {
  ts: string; device: string; site: string; temperature_c: number; humidity_pct: number; battery: number;
}

export function makeIot(days = 30): Reading[] {
  const r = rng(33);
  const devices = [['sensor-01', 'Lab'], ['sensor-02', 'Lab'], ['sensor-03', 'Warehouse'], ['sensor-04', 'Warehouse'], ['sensor-05', 'Office'], ['sensor-06', 'Office']] as const;
  const out: Reading[] = [];
  for (let h = 0; h < days * 24; h++) {
    const t = new Date(Date.UTC(2024, 4, 1) + h * 3_600_000);
    const ts = `${t.toISOString().slice(0, 10)} ${pad(t.getUTCHours())}:00:00`;
    for (const [di, [device, site]] of devices.entries()) {
      const base = site === 'Warehouse' ? 14 : site === 'Lab' ? 21 : 23;
      const daily = 3 * Math.sin(((t.getUTCHours() - 6) / 24) * 2 * Math.PI);
      const spike = r() < 0.002 ? 60 : 0;
      out.push({
        ts, device, site, temperature_c: round2(base + daily + (r() - 0.5) * 2 + spike),
        humidity_pct: round2(Math.min(100, Math.max(0, 45 + (site === 'Warehouse' ? 15 : 0) - daily * 2 + (r() - 0.5) * 10))),
        battery: Math.max(0, 100 - Math.floor(h / 8) - di * 3),
      });
    }
  }
  return out;
}

export function iotCsv(rows: readonly Reading[]): string {
  const h = ['ts', 'device', 'site', 'temperature_c', 'humidity_pct', 'battery'] as const;
  return toCsvText(h, rows.map((x) => h.map((k) => x[k])));
}

// ---------- orders + customers ----------
export interface Customer { customer_id: string; customer_name: string; segment: string; country: string; signup: string; signupIso: string }
export interface Order { order_id: string; customer_id: string; order_date: string; dateIso: string; amount: number; status: string; items: number }

export function makeShop(): { customers: Customer[]; orders: Order[] } {
  const r = rng(44);
  const customers: Customer[] = [];
  for (let i = 1; i <= 200; i++) {
    const d = new Date(Date.UTC(2021, 0, 1) + Math.floor(r() * 1200) * 86_400_000);
    customers.push({
      customer_id: `CU${pad(i, 3)}`, customer_name: `${pick(r, FIRST)} ${pick(r, LAST)}`, segment: pick(r, ['Consumer', 'Consumer', 'Corporate', 'Small Business']),
      country: pick(r, ['United States', 'Germany', 'France', 'Japan', 'Brazil']), signup: `${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())}/${d.getUTCFullYear()}`,
      signupIso: d.toISOString().slice(0, 10),
    });
  }
  const orders: Order[] = [];
  for (let i = 1; i <= 1500; i++) {
    const d = new Date(Date.UTC(2024, 0, 1) + Math.floor(r() * 366) * 86_400_000);
    const c = customers[Math.floor(r() * r() * customers.length)] as Customer;
    orders.push({
      order_id: `O-${pad(i, 5)}`, customer_id: c.customer_id, order_date: `${MON[d.getUTCMonth()]} ${pad(d.getUTCDate())}, ${d.getUTCFullYear()}`,
      dateIso: d.toISOString().slice(0, 10), amount: round2(20 + r() * r() * 480), status: pick(r, ['shipped', 'shipped', 'shipped', 'pending', 'cancelled']),
      items: 1 + Math.floor(r() * 6),
    });
  }
  return { customers, orders };
}

export function customersCsv(rows: readonly Customer[]): string {
  return toCsvText(['customer_id', 'customer_name', 'segment', 'country', 'signup_date'], rows.map((c) => [c.customer_id, c.customer_name, c.segment, c.country, c.signup]));
}

export function ordersCsv(rows: readonly Order[]): string {
  return toCsvText(['order_id', 'customer_id', 'order_date', 'amount', 'status', 'items'], rows.map((o) => [o.order_id, o.customer_id, o.order_date, o.amount, o.status, o.items]));
}

// ---------- non-ASCII headers (French sales), day-first dates ----------
export interface Vente { region: string; categorie: string; montant: number; quantite: number; date: string; dateIso: string; vendeur: string }

export function makeVentes(n = 800): Vente[] {
  const r = rng(55);
  const out: Vente[] = [];
  for (let i = 0; i < n; i++) {
    const d = new Date(Date.UTC(2023, 0, 1) + Math.floor(r() * 730) * 86_400_000);
    out.push({
      region: pick(r, ['Île-de-France', 'Bretagne', 'Provence', 'Normandie', 'Occitanie']), categorie: pick(r, ['Électronique', 'Maison', 'Jardin', 'Vêtements']),
      montant: round2(5 + r() * 995), quantite: 1 + Math.floor(r() * 12), date: `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`,
      dateIso: d.toISOString().slice(0, 10), vendeur: pick(r, ['Zoé', 'Jérôme', 'Benoît', 'Hélène', 'Loïc']),
    });
  }
  return out;
}

export function ventesCsv(rows: readonly Vente[]): string {
  return toCsvText(['Région', 'Catégorie', 'Montant (€)', 'Quantité', 'Date de vente', 'Vendeur'], rows.map((v) => [v.region, v.categorie, v.montant, v.quantite, v.date, v.vendeur]));
}
