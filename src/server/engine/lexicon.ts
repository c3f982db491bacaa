/**
 * The engine's small vocabulary: abbreviations found in column names, synonyms people use for
 * common columns, and which measures are naturally averaged rather than summed. Kept as data so
 * the matcher stays generic.
 */
import type { Agg, ColumnMeta } from './types';

/** Abbreviations in column names -> the word people say (both stems). */
export const ABBREVIATIONS: Record<string, string> = {
  qty: 'quantity', amt: 'amount', dept: 'department', temp: 'temperature', cust: 'customer', prod: 'product',
  desc: 'description', num: 'number', no: 'number', nbr: 'number', pct: 'percent', perc: 'percent', avg: 'average',
  rev: 'revenue', cat: 'category', addr: 'address', tel: 'phone', ts: 'timestamp', dt: 'date', yr: 'year', mo: 'month',
  emp: 'employee', mgr: 'manager', hum: 'humidity', hr: 'hour', sal: 'salary', val: 'value', cnt: 'count',
  dob: 'birth', loc: 'location', org: 'organization', acct: 'account', txn: 'transaction', trx: 'transaction',
  hp: 'horsepower', yrs: 'year', pop: 'population', govt: 'government', gov: 'government',
  ht: 'height', wt: 'weight', lat: 'latitude', lon: 'longitude', lng: 'longitude', dist: 'distance', dur: 'duration',
  pos: 'position', stat: 'statistic', perf: 'performance', info: 'information', ppl: 'people',
};

/**
 * Words a column name may end with that give its unit, not its meaning (`Weight_in_lbs`,
 * `Running Time min`, `Cost (USD)`): a question need not say them.
 */
export const UNIT_WORDS = new Set([
  'in', 'lbs', 'lb', 'kg', 'g', 'km', 'mi', 'min', 'mins', 'minute', 'sec', 'secs', 'second', 'ms', 'hrs', 'usd', 'eur', 'gbp',
  'dollar', 'euro', 'pct', 'mph', 'kmh', 'kph', 'knot', 'cm', 'mm', 'm', 'ft', 'inch', 'celsius', 'fahrenheit', 'c', 'f',
  'kwh', 'mw', 'kw', 'gw', 'liter', 'litre', 'l', 'ml', 'gal', 'oz', 'pounds', 'pound', 'tonne', 'ton', 'k', 'thousand', 'million', 'mn', 'bn', 'billion',
]);

/** Glue words inside column names ("Miles_per_Gallon", "Cost of goods"). */
export const NAME_GLUE = new Set(['of', 'per', 'the', 'and', 'a', 'an', 'by', 'for', 'to', 'at', 'on', 'with', 'from', 'is']);

/**
 * What people call the things a table holds: a question about "films" is about movies.csv,
 * "vehicles" about fleet.csv (stems).
 */
export const ROW_NOUN_SYNONYMS: Record<string, string[]> = {
  car: ['auto', 'automobile', 'vehicle'], auto: ['car', 'automobile', 'vehicle'], automobile: ['car', 'auto', 'vehicle'], vehicle: ['car', 'auto', 'automobile'],
  movie: ['film'], film: ['movie'], person: ['people', 'individual'], individual: ['person', 'people'], employee: ['worker', 'staff'],
  worker: ['employee', 'staff'], country: ['nation'], nation: ['country'], flight: ['trip'], trip: ['flight', 'ride', 'journey'], ride: ['trip'],
  song: ['track'], track: ['song'], book: ['title'], customer: ['client'], client: ['customer'], order: ['purchase'], purchase: ['order'],
  incident: ['event'], event: ['incident'], business: ['company'], company: ['business'], player: ['athlete'], athlete: ['player'],
};

/** Words whose opposite may be a yes/no column: "offline" readings are those where `online` is no. */
export const ANTONYMS: Record<string, string[]> = {
  outdoor: ['indoor', 'inside'], outside: ['inside', 'indoor'], indoor: ['outdoor', 'outside'], inside: ['outside', 'outdoor'],
  offline: ['online'], online: ['offline'], external: ['internal'], internal: ['external'], foreign: ['domestic', 'local'], international: ['domestic'],
  domestic: ['international', 'foreign'], private: ['public'], public: ['private'], inactive: ['active'], unpaid: ['paid'], paid: ['unpaid'],
  closed: ['open'], rural: ['urban'], urban: ['rural'], onsite: ['remote'], office: ['remote'], remote: ['onsite', 'office'], failed: ['passed', 'pass'],
  unverified: ['verified'], unsubscribed: ['subscribed'], nonsmoker: ['smoker'], female: [], male: [],
};

/**
 * Question words that stand for values spelled otherwise in data: "women" for `female`, "American"
 * for `USA`. Each maps to the value spellings tried (folded).
 */
export const VALUE_SYNONYMS: Record<string, string[]> = {
  woman: ['female', 'f', 'women', 'woman'], women: ['female', 'f'], female: ['f', 'woman', 'women'], girl: ['female', 'f'],
  man: ['male', 'm', 'men', 'man'], men: ['male', 'm'], male: ['m', 'man', 'men'], boy: ['male', 'm'],
  american: ['usa', 'us', 'united states', 'america', 'united states of america'], us: ['usa', 'united states'], usa: ['us', 'united states', 'united states of america'],
  european: ['europe', 'eu'], japanese: ['japan'], german: ['germany'], french: ['france'], british: ['uk', 'united kingdom', 'great britain', 'britain'],
  english: ['england', 'uk'], chinese: ['china'], indian: ['india'], italian: ['italy'], spanish: ['spain'], canadian: ['canada'], mexican: ['mexico'],
  african: ['africa'], asian: ['asia'], australian: ['australia'], brazilian: ['brazil'], russian: ['russia'], korean: ['korea', 'south korea'],
  swedish: ['sweden'], dutch: ['netherlands'], swiss: ['switzerland'], irish: ['ireland'], scottish: ['scotland'],
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
  // Irregular verbs of yes/no columns: "people who chose mode 2" with a `choice` flag column.
  chose: ['choice', 'chosen', 'selected'], choose: ['choice', 'chosen', 'selected'], chosen: ['choice', 'selected'],
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
  gender: ['sex'],
  sex: ['gender'],
  kid: ['child', 'children'],
  child: ['kid'],
  size: ['cc', 'displacement', 'capacity', 'volume'],
  power: ['hp', 'horsepower', 'kw', 'watt'],
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
const AVERAGED = /(price|rate|ratio|pct|percent|score|rating|temp|humidity|pressure|age|salary|wage|duration|latency|speed|level|weight|mass|height|width|length|size|discount|margin|avg|average|mean|per|reading|tenure|satisfaction|nps|bmi|voltage|battery|cpu|memory|load|delay|days|time|index|indicator|activity|density|concentration|yield|inflation|efficiency|accuracy)/;

/** Words of quantities that add up even when their values lie close together (money, counts). */
const ADDITIVE = /(revenue|amount|sales?|total|cost|income|spend|paid|payment|fee|profit|wage|earning|count|qty|quantity|units?|volume|visits?|orders?|kwh|energy|consumption|rain|precip|sum)/;

/**
 * A level, not an amount: decimals, all positive and within a factor of 3 of each other (a CO2
 * reading of 313 to 374 ppm, a blood value). Adding such readings up (17,609.6 ppm in 1980) gives a
 * number nobody means, and its size only counts how many readings there were.
 */
function isLevel(c: ColumnMeta): boolean {
  if (c.kind !== 'numeric' || c.converted || !/^(DOUBLE|FLOAT|REAL|DECIMAL\(\d+,\s*[1-9]\d*\))$/i.test(c.type)) return false;
  const lo = typeof c.min === 'number' ? c.min : NaN;
  const hi = typeof c.max === 'number' ? c.max : NaN;
  return lo > 0 && hi > lo && hi <= lo * 3 && !ADDITIVE.test(c.name.toLowerCase());
}

/** The aggregate used when a question names a measure without saying how to combine it. */
export function defaultAgg(column: string | ColumnMeta): Agg {
  const name = typeof column === 'string' ? column : column.name;
  if (AVERAGED.test(name.toLowerCase())) return 'avg';
  return typeof column !== 'string' && isLevel(column) ? 'avg' : 'sum';
}

/** Column words that make a column look like money (for "$500" without a column). */
export const MONEY_WORDS = /(revenue|amount|price|sales?|total|cost|value|income|salary|spend|paid|payment|fee|profit|wage|earning)/i;
/** Column words that make a column look like a percentage or fraction. */
export const PERCENT_WORDS = /(percent|pct|rate|share|discount|margin|humidity|fraction)/i;

/** Columns named after a unit of time: counted as distinct values, grouped whatever their size. */
export const TIME_NAMED = /^(year|yr|quarter|qtr|month|week|day|decade|hour|season|date|weekday|dow|day[ _]?of[ _]?(week|month|year)|date[ _]?of[ _]?month|month[ _]?of[ _]?year|hour[ _]?of[ _]?day|week[ _]?of[ _]?year)$/i;

/** Names of the one column of a table of counts (R's `as.data.frame(Titanic)` has `Freq`). */
export const COUNT_COLUMN = /^(freq|frequency|n|count|counts|cnt|number|num)$/i;

/** Words that mean "rows of the table" when counted: "how many rows/records/entries". */
export const ROW_WORDS = new Set(['row', 'record', 'entry', 'line', 'observation', 'reading', 'measurement']);

/** Words asking how a value moved: "change", "increase", "grow", "drop". */
export const CHANGE_WORDS = /^(change|changed|changes|increase|increased|increases|decrease|decreased|decreases|grow|grew|grown|growth|rise|rose|risen|fell|fallen|drop|dropped|decline|declined|gain|gained)$/;

/** File-name words about the copy, not the subject: orders_raw.csv, sales_clean_final.csv. */
export const FILE_QUALIFIERS = new Set(['raw', 'clean', 'cleaned', 'final', 'export', 'exported', 'dump', 'copy', 'backup', 'processed', 'full', 'sample', 'v1', 'v2', 'v3', 'new', 'old', 'latest', 'tmp', 'temp']);
