/**
 * Rows of groups among rows of nations: World Bank and UN tables list "World", "High income",
 * "Euro area" and "Sub-Saharan Africa" in the same column as France and Chad. Counted, added up or
 * ranked as nations they make "how many nations" and "the most populous nation" wrong. A
 * column whose values are mostly nations (by the maintained country list) has its values that
 * name no country and are worded as groups marked; a column of codes for the same rows (`WLD` for
 * "World") gets the same rows marked. They are left out like total rows unless the question names
 * one, and the answer says so.
 */
import { quoteIdent, quoteLiteral, relationSql } from '../duckdb/sqlText';
import { placesOfValue } from '../language/places';
import type { RunSql } from './columnTypes';
import type { ColumnMeta } from './types';

/** Words of a group's name: income groups, regions, unions, "… & …", "(excluding …)". */
const GROUP_WORDS = /\b(world|income|area|region|regions|members|member|union|total|dividend|fragile|small states|excluding|excl|ida|ibrd|oecd|euro|sub-saharan|arab|asia|africa|europe|america|pacific|caribbean|middle east|developing|developed|least|heavily|indebted|poor|blend|only|other)\b|&/i;
/** At least this share of the values, and this many, name nations. */
const COUNTRY_SHARE = 0.6;
const MIN_COUNTRIES = 20;

const isCountry = (v: string): boolean => placesOfValue(v).some((id) => id.startsWith('country:'));

export async function markPlaceGroups(run: RunSql, table: string, columns: ColumnMeta[]): Promise<void> {
  for (const c of columns) {
    if (c.kind !== 'text' || c.values === undefined || c.values.length < MIN_COUNTRIES || (c.totals ?? []).length > 0) continue;
    const countries = c.values.filter(isCountry);
    if (countries.length < MIN_COUNTRIES || countries.length < COUNTRY_SHARE * c.values.length) continue;
    // ("Egypt, Arab Rep." is Egypt: a nation's name before a comma is that nation.)
    const groups = c.values.filter((v) => !countries.includes(v) && GROUP_WORDS.test(v) && !isCountry((v.split(',')[0] ?? '').trim()));
    // One such name may be a territory ("Caribbean Netherlands"); groups come several at a time, or as "World".
    if (groups.length < 2 && !groups.some((v) => /^world$/i.test(v.trim()))) continue;
    c.placeGroups = groups;
    // The same rows in a column of their codes (as many values as this one): `WLD` beside "World".
    for (const other of columns) {
      if (other === c || other.kind !== 'text' || other.values === undefined || other.distinct !== c.distinct) continue;
      const rows = await run(`SELECT DISTINCT CAST(${quoteIdent(other.name)} AS VARCHAR) FROM ${relationSql(table)} WHERE ${quoteIdent(c.name)} IN (${groups.map(quoteLiteral).join(', ')})`);
      const codes = rows.map((r) => r[0]).filter((v): v is string => typeof v === 'string');
      if (codes.length > 0 && codes.length <= groups.length) other.placeGroups = codes;
    }
  }
}
