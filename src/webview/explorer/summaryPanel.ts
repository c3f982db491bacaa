/**
 * The summary panel: per column a missing-% bar and either a histogram sparkline (numbers and
 * dates) or the top values (text, booleans); a column expands to min, max, mean, median, stdev,
 * distinct, empty and zero counts. A search box narrows the list by column name.
 */
import type { ColumnSummary, ExploreColumn } from '../../shared/explore';
import { h } from '../dom';
import { icon } from '../icons';
import { kindIcon, sparkline, xicon } from './explorerIcons';

const nf = new Intl.NumberFormat(undefined, { maximumFractionDigits: 4 });

function fmt(v: number | string | undefined): string {
  if (v === undefined) return '—';
  return typeof v === 'number' ? nf.format(v) : v;
}

function pct(part: number, whole: number): string {
  if (whole <= 0 || part <= 0) return '0%';
  const p = (part / whole) * 100;
  return `${p > 0 && p < 0.1 ? '<0.1' : p.toFixed(p < 10 ? 1 : 0)}%`;
}

export class SummaryPanel {
  readonly el: HTMLElement;
  private readonly list = h('div', { class: 'x-sum-list', attrs: { role: 'list' } });
  private readonly search = h('input', { class: 'x-input x-sum-search', attrs: { type: 'search', placeholder: 'Search columns', 'aria-label': 'Search columns' } });
  private readonly state = h('div', { class: 'x-sum-state', attrs: { role: 'status' } });
  private columns: ExploreColumn[] = [];
  private summaries: ColumnSummary[] = [];
  private expanded = new Set<string>();

  constructor() {
    this.search.addEventListener('input', () => this.render());
    this.el = h('aside', { class: 'x-summary', attrs: { 'aria-label': 'Column summary', hidden: '' } },
      h('div', { class: 'x-sum-head' }, xicon('search', 'x-sum-search-icon'), this.search), this.state, this.list);
  }

  get open(): boolean {
    return !this.el.hidden;
  }

  setOpen(open: boolean): void {
    this.el.hidden = !open;
  }

  setColumns(columns: ExploreColumn[]): void {
    this.columns = columns;
    this.summaries = [];
    this.render();
  }

  loading(): void {
    this.state.textContent = 'Summarizing…';
  }

  failed(message: string): void {
    this.state.textContent = message;
    this.state.classList.add('error');
  }

  show(summaries: ColumnSummary[]): void {
    this.summaries = summaries;
    this.state.textContent = '';
    this.state.classList.remove('error');
    this.render();
  }

  private render(): void {
    const q = this.search.value.trim().toLowerCase();
    const byName = new Map(this.summaries.map((s) => [s.column, s]));
    const shown = this.columns.filter((c) => q === '' || c.name.toLowerCase().includes(q));
    this.list.replaceChildren(...shown.map((c) => this.item(c, byName.get(c.name))));
    if (shown.length === 0) this.list.appendChild(h('p', { class: 'x-sum-none' }, 'No column matches.'));
  }

  private item(c: ExploreColumn, s: ColumnSummary | undefined): HTMLElement {
    const open = this.expanded.has(c.name);
    const toggle = h('button', {
      class: 'x-sum-toggle',
      attrs: { type: 'button', 'aria-expanded': open ? 'true' : 'false', title: open ? 'Show less' : 'Show statistics' },
    }, icon('chevron', 'chevron'), kindIcon(c.kind, c.type), h('span', { class: 'x-sum-name' }, c.name));
    toggle.addEventListener('click', () => {
      if (open) this.expanded.delete(c.name);
      else this.expanded.add(c.name);
      this.render();
    });
    const row = h('div', { class: `x-sum-item${open ? ' open' : ''}`, attrs: { role: 'listitem', 'data-column': c.name } }, toggle);
    if (!s) return row;
    const missing = pct(s.missing, s.count);
    const bar = h('div', { class: 'x-missing', attrs: { role: 'img', 'aria-label': `${missing} missing`, title: `${s.missing} of ${s.count} missing` } },
      h('div', { class: 'x-missing-fill' }));
    (bar.firstElementChild as HTMLElement).style.width = `${s.count > 0 ? (s.missing / s.count) * 100 : 0}%`;
    row.append(h('div', { class: 'x-sum-missing' }, bar, h('span', { class: 'x-missing-text' }, `${missing} missing`)));
    if (s.histogram && s.histogram.length > 0) {
      const spark = sparkline(s.histogram);
      spark.setAttribute('role', 'img');
      spark.setAttribute('aria-hidden', 'false');
      spark.setAttribute('aria-label', `Histogram from ${fmt(s.min)} to ${fmt(s.max)}`);
      row.append(h('div', { class: 'x-sum-hist' }, spark, h('div', { class: 'x-sum-range' }, h('span', {}, fmt(s.min)), h('span', {}, fmt(s.max)))));
    } else if (s.top && s.top.length > 0) {
      const peak = Math.max(1, ...s.top.map((t) => t.count));
      const top = (open ? s.top : s.top.slice(0, 3)).map((t) => {
        const fill = h('span', { class: 'x-top-fill' });
        fill.style.width = `${(t.count / peak) * 100}%`;
        return h('li', { class: 'x-top' }, h('span', { class: 'x-top-bar', attrs: { 'aria-hidden': 'true' } }, fill),
          h('span', { class: 'x-top-value' }, t.value === '' ? '(empty)' : t.value), h('span', { class: 'x-top-count' }, nf.format(t.count)));
      });
      row.append(h('ul', { class: 'x-sum-top', attrs: { 'aria-label': 'Most common values' } }, ...top));
    }
    if (open) {
      const stats: Array<[string, number | string | undefined]> = [
        ['Min', s.min], ['Max', s.max], ['Mean', s.mean], ['Median', s.median], ['Std dev', s.stdev],
        ['Distinct', s.distinct], ['Missing', s.missing], ['Empty', s.empty], ['Zero', s.zero], ['Rows', s.count],
      ];
      row.append(h('dl', { class: 'x-sum-stats' }, ...stats.filter(([, v]) => v !== undefined).flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, fmt(v))])));
    }
    return row;
  }
}
