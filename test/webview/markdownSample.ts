/**
 * Deterministic, realistic answer markdown of a given size (headings, prose with inline markup
 * and links, lists, tables, fenced code with blank lines, quotes, emoji and CJK), and a splitter
 * that cuts it into fragments at pseudo-random points, including inside markup, fences and
 * surrogate pairs — the way a token stream arrives.
 */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 0x100000000;
  };
}

const REGIONS = ['Europe', 'North America', 'Asia', 'South America', 'Africa', 'Oceania'];

function section(n: number, r: () => number): string {
  const region = REGIONS[n % REGIONS.length] as string;
  const v = (x: number): string => (x * (1 + r())).toFixed(2);
  return [
    `## ${n}. Revenue in ${region}`,
    '',
    `Revenue in **${region}** reached ${v(1200)} k€ (_${v(3)}%_ growth), see \`sales.csv\` and [the report](https://example.com/r/${n}).`,
    `Orders rose 📈 to ${Math.floor(r() * 9000)}; 中文摘要：收入增长。`,
    '',
    '- top channel: online',
    `- runner-up: retail, ${v(40)}%`,
    '  with a continuation line',
    '',
    '- a loose list item after a blank line',
    '',
    '| channel | revenue |',
    '|---|---:|',
    `| online | ${v(500)} |`,
    `| retail | ${v(300)} |`,
    '',
    '```python',
    'import pandas as pd',
    '',
    `df = pd.read_csv("sales.csv")  # section ${n}`,
    '',
    `print(df[df.region == "${region}"].revenue.sum())`,
    '```',
    '',
    `> Note ${n}: figures exclude returns.`,
    '',
  ].join('\n');
}

export function sampleMarkdown(bytes: number, seed = 1): string {
  const r = rng(seed);
  const parts: string[] = [];
  let size = 0;
  for (let n = 1; size < bytes; n++) {
    const s = section(n, r);
    parts.push(s);
    size += s.length;
  }
  return parts.join('\n').slice(0, bytes);
}

/** Plain prose (no markdown syntax): paragraphs of lines, so the rendered text equals the source. */
export function plainProse(paragraphs: number, seed = 2): string {
  const r = rng(seed);
  const words = ['revenue', 'grew', 'in', 'Europe', 'while', 'orders', 'fell', 'slightly', 'overall', 'year', 'on', 'year', '2024', 'Q3', 'ü', 'é', '😀', '数据'];
  const out: string[] = [];
  for (let p = 0; p < paragraphs; p++) {
    const lines: string[] = [];
    const n = 1 + Math.floor(r() * 3);
    for (let l = 0; l < n; l++) {
      const len = 3 + Math.floor(r() * 12);
      lines.push(Array.from({ length: len }, () => words[Math.floor(r() * words.length)]).join(' '));
    }
    out.push(lines.join('\n'));
  }
  return out.join('\n\n');
}

/** Cuts `text` into `count` fragments of pseudo-random length (never empty). */
export function fragments(text: string, count: number, seed = 3): string[] {
  const r = rng(seed);
  const cuts = new Set<number>();
  while (cuts.size < Math.min(count - 1, text.length - 1)) cuts.add(1 + Math.floor(r() * (text.length - 1)));
  const sorted = [...cuts].sort((a, b) => a - b);
  const out: string[] = [];
  let prev = 0;
  for (const c of sorted) {
    out.push(text.slice(prev, c));
    prev = c;
  }
  out.push(text.slice(prev));
  return out;
}
