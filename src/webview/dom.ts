/**
 * Minimal DOM building. Text always goes in as text nodes (never parsed as HTML), attributes are
 * set one by one and inline `on*` handlers or `style` attributes are refused, because the panel
 * runs under a CSP that forbids both and because service text reaches most of these calls.
 */
export type Child = Node | string | null | undefined | false;

export interface Props {
  class?: string;
  /** Plain attributes, e.g. `aria-label`, `role`, `type`. */
  attrs?: Record<string, string | undefined>;
}

export function setAttrs(el: Element, attrs: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(attrs)) {
    if (/^on/i.test(name) || name.toLowerCase() === 'style') throw new Error(`refusing attribute ${name}`);
    if (value === undefined) el.removeAttribute(name);
    else el.setAttribute(name, value);
  }
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props.class) el.className = props.class;
  if (props.attrs) setAttrs(el, props.attrs);
  append(el, ...children);
  return el;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    parent.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
  }
}

/** A button with an accessible name; `label` may be hidden visually when an icon carries it. */
export function button(opts: {
  label: string;
  icon?: SVGElement;
  class?: string;
  title?: string;
  iconOnly?: boolean;
  onClick: (e: MouseEvent) => void;
}): HTMLButtonElement {
  const b = h('button', {
    class: `btn${opts.class ? ` ${opts.class}` : ''}${opts.iconOnly ? ' icon-only' : ''}`,
    attrs: { type: 'button', title: opts.title ?? opts.label, 'aria-label': opts.iconOnly ? opts.label : undefined },
  });
  if (opts.icon) b.appendChild(opts.icon);
  if (!opts.iconOnly) b.appendChild(h('span', { class: 'btn-label' }, opts.label));
  b.addEventListener('click', opts.onClick);
  return b;
}

/** Short polite announcement for screen readers (copied, sorted, …). */
export function announce(message: string): void {
  const region = document.getElementById('announcer');
  if (!region) return;
  region.textContent = '';
  // A fresh text node in a later task makes repeated identical messages announce again.
  window.setTimeout(() => (region.textContent = message), 30);
}

/**
 * Text whose `backticked` spans are names (the engine's "Read the question as: Total `revenue`"):
 * each span becomes a <code> element, everything else a text node, so nothing is parsed as HTML.
 */
export function withCodeSpans(text: string): Child[] {
  return text.split(/`([^`\n]+)`/).map((part, i) => (i % 2 === 1 ? h('code', {}, part) : part)).filter((p) => p !== '');
}
