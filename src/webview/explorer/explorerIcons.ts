/**
 * The explorer's own icons (column kinds, pin, filter, summary, SQL, export), drawn like
 * src/webview/icons.ts: 16x16 inline SVG in `currentColor`, built with DOM calls (no icon font,
 * no remote or data URLs), so they follow every theme.
 */
import type { ExploreKind } from '../../shared/explore';

const SVG_NS = 'http://www.w3.org/2000/svg';

const ICONS = {
  kindNumber: { stroke: ['M6 2.5l-1.5 11', 'M11.5 2.5l-1.5 11', 'M2.5 6h11', 'M2 10h11'] },
  kindText: { stroke: ['M3 4.5v-1.5h10v1.5', 'M8 3v10', 'M6 13h4'] },
  kindDate: { stroke: ['M2.5 3.5h11v10h-11z', 'M2.5 6.5h11', 'M5 2v3M11 2v3'], fill: ['M5 9h2v2h-2z'] },
  kindDatetime: { stroke: ['M8 2a6 6 0 1 0 0 12a6 6 0 1 0 0-12z', 'M8 4.5v3.5l2.5 1.5'] },
  kindBoolean: { stroke: ['M5 4.5h6a3.5 3.5 0 0 1 0 7h-6a3.5 3.5 0 0 1 0-7z'], fill: ['M11 6.2a1.8 1.8 0 1 0 0 3.6a1.8 1.8 0 1 0 0-3.6z'] },
  kindOther: { stroke: ['M6 2.5c-2 0-2 1-2 2.5s-1 3-2 3c1 0 2 1.5 2 3s0 2.5 2 2.5', 'M10 2.5c2 0 2 1 2 2.5s1 3 2 3c-1 0-2 1.5-2 3s0 2.5-2 2.5'] },
  pin: { stroke: ['M6 2.5h4', 'M7 2.5v4l-2.5 2.5h7l-2.5-2.5v-4', 'M8 9v5'] },
  filter: { stroke: ['M2 3h12l-4.5 5.5v4.5l-3 1.5v-6z'] },
  summary: { stroke: ['M2.5 13.5h11', 'M4.5 13.5v-4', 'M8 13.5v-9', 'M11.5 13.5v-6'] },
  sql: { stroke: ['M2.5 4c0-1.1 2.5-2 5.5-2s5.5.9 5.5 2-2.5 2-5.5 2-5.5-.9-5.5-2z', 'M2.5 4v8c0 1.1 2.5 2 5.5 2s5.5-.9 5.5-2v-8', 'M2.5 8c0 1.1 2.5 2 5.5 2s5.5-.9 5.5-2'] },
  exportFile: { stroke: ['M3.5 1.5h6l3 3v10h-9z', 'M9.5 1.5v3h3', 'M8 6.5v5', 'M5.8 9.3l2.2 2.2 2.2-2.2'] },
  ask: { stroke: ['M2.5 3.5h11v7h-6l-3 3v-3h-2z'], fill: ['M7.3 8.2h1.4v1.2h-1.4z'] },
  add: { stroke: ['M8 3v10M3 8h10'] },
  close: { stroke: ['M4 4l8 8M12 4l-8 8'] },
  expand: { stroke: ['M6 3.5l4.5 4.5-4.5 4.5'] },
  search: { stroke: ['M7 2.5a4.5 4.5 0 1 0 0 9a4.5 4.5 0 1 0 0-9z', 'M10.3 10.3l3.7 3.7'] },
} satisfies Record<string, { stroke?: string[]; fill?: string[] }>;

export type ExplorerIconName = keyof typeof ICONS;

export function xicon(name: ExplorerIconName, extraClass?: string): SVGSVGElement {
  const svg = document.createElementNS(SVG_NS, 'svg');
  for (const [k, v] of [['viewBox', '0 0 16 16'], ['width', '16'], ['height', '16'], ['aria-hidden', 'true'], ['focusable', 'false']]) {
    svg.setAttribute(k as string, v as string);
  }
  svg.setAttribute('class', `icon icon-${name}${extraClass ? ` ${extraClass}` : ''}`);
  const def: { stroke?: string[]; fill?: string[] } = ICONS[name];
  for (const [list, cls] of [[def.stroke, 'icon-stroke'], [def.fill, 'icon-fill']] as const) {
    for (const d of list ?? []) {
      const p = document.createElementNS(SVG_NS, 'path');
      p.setAttribute('d', d);
      p.setAttribute('class', cls);
      svg.appendChild(p);
    }
  }
  return svg;
}

const KIND_ICON: Record<ExploreKind, ExplorerIconName> = {
  number: 'kindNumber',
  text: 'kindText',
  date: 'kindDate',
  datetime: 'kindDatetime',
  boolean: 'kindBoolean',
  other: 'kindOther',
};

export const KIND_LABEL: Record<ExploreKind, string> = {
  number: 'number',
  text: 'text',
  date: 'date',
  datetime: 'date and time',
  boolean: 'true/false',
  other: 'other',
};

/** The column kind's icon, with its name as the tooltip's and screen reader's text. */
export function kindIcon(kind: ExploreKind, type: string): SVGSVGElement {
  const svg = xicon(KIND_ICON[kind], `kind kind-${kind}`);
  const title = document.createElementNS(SVG_NS, 'title');
  title.textContent = `${KIND_LABEL[kind]} (${type})`;
  svg.appendChild(title);
  return svg;
}

/**
 * A histogram sparkline: one bar per bin, heights relative to the tallest, drawn as SVG rects
 * (DOM calls only, so the strict CSP is untouched).
 */
export function sparkline(bins: number[], width = 120, height = 24): SVGSVGElement {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('width', String(width));
  svg.setAttribute('height', String(height));
  svg.setAttribute('class', 'x-spark');
  svg.setAttribute('aria-hidden', 'true');
  const peak = Math.max(1, ...bins);
  const w = bins.length > 0 ? width / bins.length : width;
  bins.forEach((n, i) => {
    const hgt = n > 0 ? Math.max(1, (n / peak) * height) : 0;
    const r = document.createElementNS(SVG_NS, 'rect');
    r.setAttribute('x', (i * w + 0.5).toFixed(2));
    r.setAttribute('y', (height - hgt).toFixed(2));
    r.setAttribute('width', Math.max(1, w - 1).toFixed(2));
    r.setAttribute('height', hgt.toFixed(2));
    svg.appendChild(r);
  });
  return svg;
}
