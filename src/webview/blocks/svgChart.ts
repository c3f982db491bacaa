/**
 * SVG charts shown inline: the drawing is sanitized (DOMPurify's SVG profile, no scripts, styles,
 * links, embedded images or foreign HTML) and put into the page, so the stylesheet can give its
 * text, axes and series the theme's colours (and they follow a theme change without a re-render),
 * and the enlarged view can scale the vector drawing to the window.
 */
import DOMPurify from 'dompurify';

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Classes a charting library gives its marks, which the stylesheet targets; others are dropped. */
const ALLOWED_CLASS = /^(marks?|mark-[\w-]+|role-[\w-]+|background|foreground|root)$/;

let purifier: ReturnType<typeof DOMPurify> | undefined;

function instance(): ReturnType<typeof DOMPurify> {
  if (purifier) return purifier;
  const p = DOMPurify(window);
  p.setConfig({
    USE_PROFILES: { svg: true },
    FORBID_TAGS: ['style', 'script', 'foreignObject', 'image', 'use', 'a', 'animate', 'animateMotion', 'animateTransform', 'set', 'feImage'],
    FORBID_ATTR: ['style', 'href', 'xlink:href', 'onload', 'onclick'],
    ALLOW_DATA_ATTR: false,
    RETURN_DOM_FRAGMENT: true,
  });
  p.addHook('afterSanitizeAttributes', (node) => {
    const cls = node.getAttribute('class');
    if (cls === null) return;
    const kept = cls.split(/\s+/).filter((c) => ALLOWED_CLASS.test(c)).join(' ');
    if (kept) node.setAttribute('class', kept);
    else node.removeAttribute('class');
  });
  purifier = p;
  return p;
}

let drawings = 0;

/**
 * Ids inside one drawing (clip paths) are renamed so two charts in the panel never resolve each
 * other's `url(#…)` references; a reference to anything outside the drawing becomes `none`.
 */
function scopeIds(svg: SVGSVGElement): void {
  const prefix = `chart${++drawings}-`;
  const renamed = new Map<string, string>();
  for (const el of svg.querySelectorAll('[id]')) {
    const id = el.getAttribute('id') ?? '';
    renamed.set(id, prefix + id);
    el.setAttribute('id', prefix + id);
  }
  for (const el of svg.querySelectorAll('*')) {
    for (const attr of Array.from(el.attributes)) {
      if (!attr.value.includes('url(#')) continue;
      el.setAttribute(attr.name, attr.value.replace(/url\(#([^)]+)\)/g, (m, id: string) => {
        const to = renamed.get(id);
        return to === undefined ? 'none' : `url(#${to})`;
      }));
    }
  }
}

/**
 * The sanitized drawing, ready to insert, or undefined when the text is not a usable SVG (the
 * caller then shows the file as an image).
 */
export function chartElement(text: string, label: string): SVGSVGElement | undefined {
  const out: unknown = instance().sanitize(text);
  if (!(out instanceof DocumentFragment)) return undefined;
  const svg = out.firstElementChild;
  if (!(svg instanceof SVGSVGElement) || svg.namespaceURI !== SVG_NS) return undefined;
  const w = Number.parseFloat(svg.getAttribute('width') ?? '');
  const h = Number.parseFloat(svg.getAttribute('height') ?? '');
  // Scaling needs a viewBox; a drawing with neither a viewBox nor a size cannot be scaled.
  if (!svg.hasAttribute('viewBox')) {
    if (!(w > 0 && h > 0)) return undefined;
    svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
  }
  scopeIds(svg);
  svg.setAttribute('class', 'chart-svg');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  svg.setAttribute('focusable', 'false');
  return svg;
}

/** A copy for the enlarged view: no fixed size, so it fills the view at its aspect ratio. */
export function enlargedCopy(svg: SVGSVGElement): SVGSVGElement {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  copy.removeAttribute('width');
  copy.removeAttribute('height');
  copy.setAttribute('class', 'chart-svg overlay-chart');
  copy.setAttribute('preserveAspectRatio', 'xMidYMid meet');
  return copy;
}
