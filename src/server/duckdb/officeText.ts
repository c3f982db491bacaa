/**
 * The text of Word and PowerPoint files with the structure a reader sees: headings as Markdown
 * `#` lines (so retrieval knows which section a passage is in) and list items with the numbers
 * Word and PowerPoint draw ("5. ..."), which are not part of the files' text runs. Everything
 * else is plain text, one paragraph per line.
 */

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Decodes the XML entities and numeric character references. */
export function decodeXmlText(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos|nbsp);/gi, (m, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

/** mammoth's style map additions: Word's Title and Subtitle paragraphs are headings too. */
export const DOCX_STYLE_MAP = ["p[style-name='Title'] => h1:fresh", "p[style-name='Subtitle'] => h2:fresh"];

/**
 * mammoth's HTML (a small, well-formed vocabulary: p, h1-h6, ol/ul/li, table/tr/td, br and inline
 * tags) as text: `## heading`, `3. item` numbered within its list, `- item`, table cells joined by
 * ` | `, paragraphs separated by blank lines.
 */
export function docxHtmlToText(html: string): string {
  let out = '';
  let cur = '';
  let prefix = '';
  let sep = '\n\n';
  const lists: Array<{ ordered: boolean; n: number }> = [];
  let table = 0;
  let cells = 0;
  const end = (): void => {
    const body = cur.replace(/[ \t\u00a0]+/g, ' ').trim();
    if (body) out += (out ? sep : '') + prefix + body;
    cur = '';
    prefix = '';
  };
  const start = (p: string, s: string): void => {
    end();
    prefix = p;
    sep = s;
  };
  for (const m of html.matchAll(/<(\/?)([a-z][a-z0-9]*)\b[^>]*?(\/?)>|([^<]+)/gi)) {
    const text = m[4];
    if (text !== undefined) {
      cur += decodeXmlText(text);
      continue;
    }
    const closing = m[1] === '/';
    const tag = (m[2] ?? '').toLowerCase();
    const heading = /^h([1-6])$/.exec(tag);
    if (heading && !closing) start(`${'#'.repeat(Number(heading[1]))} `, '\n\n');
    else if ((tag === 'ol' || tag === 'ul') && !closing) lists.push({ ordered: tag === 'ol', n: 0 });
    else if ((tag === 'ol' || tag === 'ul') && closing) {
      end();
      lists.pop();
    } else if (tag === 'li' && !closing) {
      const list = lists[lists.length - 1];
      if (list) list.n++;
      start(list?.ordered ? `${list.n}. ` : '- ', '\n');
    } else if (tag === 'table') {
      end();
      table += closing ? -1 : 1;
    } else if (tag === 'tr' && !closing) {
      start('', '\n');
      cells = 0;
    } else if ((tag === 'td' || tag === 'th') && !closing) {
      if (cells++ > 0) cur += ' | ';
    } else if (tag === 'p' && !closing && table === 0 && (lists.length === 0 || cur.trim() !== '')) start('', lists.length > 0 ? '\n' : '\n\n');
    else if (tag === 'p' && table > 0) cur += ' ';
    else if (tag === 'br') cur += table > 0 ? ' ' : '\n';
    else if (closing && (heading || tag === 'p' || tag === 'li') && table === 0) end();
  }
  end();
  return out;
}

/** The number of an auto-numbered paragraph as PowerPoint draws it ("3.", "3)", "c."). */
function autoNumber(type: string, n: number): string {
  const letter = (upper: boolean): string => String.fromCharCode((upper ? 65 : 97) + ((n - 1) % 26));
  const body = /^alphaLc/.test(type) ? letter(false) : /^alphaUc/.test(type) ? letter(true) : String(n);
  return /ParenBoth$/.test(type) ? `(${body})` : /ParenR$/.test(type) ? `${body})` : `${body}.`;
}

/** The paragraphs of one shape (or of a table's cells), list numbers and bullets written out. */
function shapeLines(xml: string): string[] {
  const lines: string[] = [];
  const counters = new Map<number, number>();
  for (const p of xml.match(/<a:p[\s>][\s\S]*?<\/a:p>/g) ?? []) {
    const runs = [...p.matchAll(/<a:t(?:\s[^>]*)?>([\s\S]*?)<\/a:t>/g)].map((m) => decodeXmlText(m[1] ?? ''));
    const text = runs.join('').trim();
    const ppr = /<a:pPr\b[^>]*?(?:\/>|>[\s\S]*?<\/a:pPr>)/.exec(p)?.[0] ?? '';
    const level = Number(/\blvl="(\d+)"/.exec(ppr)?.[1] ?? 0);
    for (const l of [...counters.keys()]) if (l > level) counters.delete(l);
    const auto = /<a:buAutoNum\b[^>]*?type="([^"]+)"[^>]*?\/?>/.exec(ppr);
    if (text === '') continue;
    if (auto) {
      const startAt = Number(/\bstartAt="(\d+)"/.exec(auto[0])?.[1] ?? 1);
      const n = (counters.get(level) ?? startAt - 1) + 1;
      counters.set(level, n);
      lines.push(`${autoNumber(auto[1] ?? '', n)} ${text}`);
      continue;
    }
    counters.delete(level);
    lines.push(/<a:buChar\b/.test(ppr) ? `- ${text}` : text);
  }
  return lines;
}

/**
 * Text of one slide's XML: its title first as a `#` heading, then each shape's paragraphs on their
 * own lines (runs joined), numbered and bulleted as PowerPoint shows them.
 */
export function slideText(xml: string): string {
  const shapes = xml.match(/<p:(sp|graphicFrame)\b[\s\S]*?<\/p:\1>/g) ?? [xml];
  const titles: string[] = [];
  const body: string[] = [];
  for (const shape of shapes) {
    const lines = shapeLines(shape);
    if (/<p:ph\b[^>]*\btype="(?:title|ctrTitle)"/.test(shape)) titles.push(lines.join(' '));
    else body.push(...lines);
  }
  const title = titles.join(' ').trim();
  return [...(title ? [`# ${title}`] : []), ...body].join('\n');
}
