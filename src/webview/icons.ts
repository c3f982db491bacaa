/**
 * The few icons the panel needs, drawn as 16x16 inline SVG in `currentColor` so they follow the
 * theme like codicons do. Built with DOM calls: no icon font, no remote or data URLs.
 */
const SVG_NS = 'http://www.w3.org/2000/svg';

/** Each icon: stroked paths (1.2px, round caps) and optional filled paths. */
const ICONS = {
  copy: { stroke: ['M5.5 5.5h7v8h-7z', 'M3.5 10.5v-8h7'] },
  /** Copy as shown (rounded figures): the copy icon with lines of figures inside. */
  copyShown: { stroke: ['M5.5 5.5h7v8h-7z', 'M3.5 10.5v-8h7', 'M7.5 8.5h3', 'M7.5 10.5h3'] },
  openEditor: { stroke: ['M3.5 1.5h6l3 3v10h-9z', 'M9.5 1.5v3h3', 'M6 9.5h4M8 7.5v4'] },
  insert: { stroke: ['M2.5 3.5h11', 'M2.5 12.5h11', 'M8 5.5v5', 'M5.5 8l2.5 2.5 2.5-2.5'] },
  save: { stroke: ['M2.5 2.5h9l2 2v9h-11z', 'M5 2.5v3.5h5v-3.5', 'M5 13.5v-4h6v4'] },
  table: { stroke: ['M1.5 2.5h13v11h-13z', 'M1.5 6h13', 'M1.5 9.75h13', 'M6 6v7.5', 'M10.5 6v7.5'] },
  image: { stroke: ['M1.5 2.5h13v11h-13z', 'M1.5 11l4-4 3.5 3.5 2-2 3.5 3.5'], fill: ['M11 6.3a1.3 1.3 0 1 0 0-.01z'] },
  chevron: { stroke: ['M6 3.5l4.5 4.5-4.5 4.5'] },
  check: { stroke: ['M3 8.5l3 3 7-7'] },
  error: { stroke: ['M8 1.5a6.5 6.5 0 1 0 0 13a6.5 6.5 0 1 0 0-13z', 'M5.5 5.5l5 5M10.5 5.5l-5 5'] },
  retry: { stroke: ['M13 8a5 5 0 1 1-1.6-3.7', 'M11.8 1.8v2.9h-2.9'] },
  stop: { fill: ['M4 4h8v8h-8z'] },
  send: { stroke: ['M2 8l12-5.5-4 11-2.5-4.5z', 'M7.5 9l6.5-6.5'] },
  close: { stroke: ['M4 4l8 8M12 4l-8 8'] },
  linkExternal: { stroke: ['M9.5 2.5h4v4', 'M13.5 2.5l-6 6', 'M11.5 9.5v4h-9v-9h4'] },
  file: { stroke: ['M3.5 1.5h6l3 3v10h-9z', 'M9.5 1.5v3h3'] },
  question: { stroke: ['M2.5 3.5h11v7h-6l-3 3v-3h-2z'] },
  sortUp: { stroke: ['M8 13V3', 'M4.5 6.5L8 3l3.5 3.5'] },
  sortDown: { stroke: ['M8 3v10', 'M4.5 9.5L8 13l3.5-3.5'] },
  zoom: { stroke: ['M7 2.5a4.5 4.5 0 1 0 0 9a4.5 4.5 0 1 0 0-9z', 'M10.3 10.3l3.7 3.7', 'M7 5v4M5 7h4'] },
  info: { stroke: ['M8 1.5a6.5 6.5 0 1 0 0 13a6.5 6.5 0 1 0 0-13z', 'M8 7v4.5'], fill: ['M7.2 4.8a.8.8 0 1 0 1.6 0a.8.8 0 1 0-1.6 0z'] },
} satisfies Record<string, { stroke?: string[]; fill?: string[] }>;

export type IconName = keyof typeof ICONS;

export function icon(name: IconName, extraClass?: string): SVGSVGElement {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('width', '16');
  svg.setAttribute('height', '16');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  svg.setAttribute('class', `icon icon-${name}${extraClass ? ` ${extraClass}` : ''}`);
  const def: { stroke?: string[]; fill?: string[] } = ICONS[name];
  for (const d of def.stroke ?? []) {
    const p = document.createElementNS(SVG_NS, 'path');
    p.setAttribute('d', d);
    p.setAttribute('class', 'icon-stroke');
    svg.appendChild(p);
  }
  for (const d of def.fill ?? []) {
    const p = document.createElementNS(SVG_NS, 'path');
    p.setAttribute('d', d);
    p.setAttribute('class', 'icon-fill');
    svg.appendChild(p);
  }
  return svg;
}

/** A spinner: a CSS-animated ring (the animation stops under prefers-reduced-motion). */
export function spinner(label = 'Running'): HTMLSpanElement {
  const s = document.createElement('span');
  s.className = 'spinner';
  s.setAttribute('role', 'img');
  s.setAttribute('aria-label', label);
  return s;
}
