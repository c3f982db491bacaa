/**
 * The engine's small vocabulary: abbreviations found in column names, synonyms people use for
 * common columns, and which measures are naturally averaged rather than summed. Kept as data so
 * the matcher stays generic.
 */
import type { Agg } from './types';

/** Abbreviations in column names -> the word people say (both stems). */
export const ABBREVIATIONS: Record<string, string> = {
  qty: 'quantity', amt: 'amount', dept: 'department', temp: 'temperature', cust: 'customer', prod: 'product',
  desc: 'description', num: 'number', no: 'number', nbr: 'number', pct: 'percent', perc: 'percent', avg: 'average',
  rev: 'revenue', cat: 'category', addr: 'address', tel: 'phone', ts: 'timestamp', dt: 'date', yr: 'year', mo: 'month',
  emp: 'employee', mgr: 'manager', hum: 'humidity', hr: 'hour', sal: 'salary', val: 'value', cnt: 'count',
  dob: 'birth', loc: 'location', org: 'organization', acct: 'account', txn: 'transaction', trx: 'transaction',
};

/**
 * Synonyms: a question word (stem) -> column words (stems) it may stand for. Used only when the
 * word names no column directly.
 */
export const SYNONYMS: Record<string, string[]> = {
  // Money words of other languages appear in column names of exports (montant, Umsatz, importe...).
  revenue: ['sale', 'sales', 'income', 'turnover', 'amount', 'total', 'value', 'montant', 'umsatz', 'betrag', 'importe', 'venta', 'ventas', 'fatturato', 'receita', 'chiffre'],
  sale: ['revenue', 'amount', 'total', 'value', 'order', 'montant', 'umsatz', 'betrag', 'importe', 'venta', 'ventas'],
  income: ['revenue', 'salary', 'earning'],
  turnover: ['revenue', 'sale'],
  earning: ['revenue', 'salary', 'income'],
  earn: ['salary', 'income', 'revenue', 'wage', 'pay'],
  spend: ['amount', 'revenue', 'cost', 'total'],
  spending: ['amount', 'revenue', 'cost', 'total'],
  money: ['revenue', 'amount', 'total'],
  amount: ['revenue', 'total', 'value', 'montant', 'betrag', 'importe', 'importo', 'valor'],
  cost: ['price', 'amount'],
  price: ['unit_price', 'cost', 'amount', 'prix', 'preis', 'precio', 'prezzo', 'preco'],
  client: ['customer'],
  buyer: ['customer'],
  customer: ['client', 'buyer'],
  item: ['product', 'sku'],
  product: ['item', 'sku'],
  sku: ['product', 'item'],
  unit: ['quantity'],
  volume: ['quantity'],
  quantity: ['unit', 'qty', 'quantite', 'menge', 'cantidad', 'quantita', 'quantidade'],
  area: ['region'],
  territory: ['region'],
  nation: ['country'],
  city: ['town', 'location'],
  town: ['city'],
  staff: ['employee'],
  worker: ['employee'],
  employee: ['staff', 'person', 'name'],
  pay: ['salary', 'wage'],
  wage: ['salary', 'pay'],
  compensation: ['salary'],
  salary: ['pay', 'wage', 'income'],
  old: ['age'],
  score: ['rating'],
  star: ['rating'],
  rating: ['score', 'star'],
  rebate: ['discount'],
  team: ['department'],
  department: ['team', 'dept'],
  temperature: ['temp'],
  reading: ['value'],
  sensor: ['device'],
  device: ['sensor'],
  segment: ['tier', 'type'],
  tier: ['segment'],
  signup: ['registration', 'joined', 'created'],
  registration: ['signup'],
  time: ['timestamp', 'date'],
  day: ['date'],
  when: ['date'],
  kind: ['type', 'category'],
  type: ['category', 'kind'],
  category: ['type', 'kind', 'group'],
  channel: ['source', 'medium'],
  order: ['sale', 'transaction'],
  transaction: ['order', 'sale'],
  delivery: ['shipping', 'ship'],
  shipping: ['delivery', 'ship'],
  humidity: ['hum'],
  age: ['old'],
};

/** Phrases that name a measure without naming its column (question stems joined by spaces). */
export const PHRASE_SYNONYMS: Record<string, string[]> = {
  'order value': ['revenue', 'amount', 'total', 'sale', 'value'],
  'basket size': ['revenue', 'amount', 'total'],
  'ticket size': ['revenue', 'amount', 'total'],
  'units sold': ['quantity', 'unit'],
  'how old': ['age'],
  'how big': ['population', 'size', 'area', 'volume', 'capacity', 'amount', 'revenue'],
  'how large': ['population', 'size', 'area', 'volume', 'capacity', 'amount', 'revenue'],
  'sales amount': ['revenue', 'amount', 'sale'],
};

/**
 * Measures that are rates, levels or per-item figures: "price by category" means the average
 * price, while "revenue by category" means the total.
 */
const AVERAGED = /(price|rate|ratio|pct|percent|score|rating|temp|humidity|pressure|age|salary|wage|duration|latency|speed|level|weight|height|width|length|size|discount|margin|avg|average|mean|per|reading|tenure|satisfaction|nps|bmi|voltage|battery|cpu|memory|load|delay|days|time)/;

/** The aggregate used when a question names a measure without saying how to combine it. */
export function defaultAgg(columnName: string): Agg {
  return AVERAGED.test(columnName.toLowerCase()) ? 'avg' : 'sum';
}

/** Column words that make a column look like money (for "$500" without a column). */
export const MONEY_WORDS = /(revenue|amount|price|sales?|total|cost|value|income|salary|spend|paid|payment|fee|profit|wage|earning)/i;
/** Column words that make a column look like a percentage or fraction. */
export const PERCENT_WORDS = /(percent|pct|rate|ratio|share|discount|margin|humidity|fraction)/i;

/** Words that mean "rows of the table" when counted: "how many rows/records/entries". */
export const ROW_WORDS = new Set(['row', 'record', 'entry', 'line', 'observation', 'reading', 'measurement']);
