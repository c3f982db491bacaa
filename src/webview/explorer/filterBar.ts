/**
 * The filter bar: one chip per condition (click to edit, × to remove), a form to add or edit a
 * condition with the choices that fit the column's kind, and the live count of matching rows.
 * Input that cannot become a filter (a bad number or date, an invalid regex) is flagged on its
 * field and never sent; an error the service gives for a filter is shown on that filter's chip.
 */
import type { ExploreColumn, ExploreFilter } from '../../shared/explore';
import { announce, h } from '../dom';
import { xicon } from './explorerIcons';
import { buildFilter, canNegate, describeFilter, OP_LABEL, opsFor, type FilterInput, type FilterOp } from './filterModel';

export interface FilterBarEvents {
  /** The conditions changed; `touched` is the index of the one added or edited (-1: removed). */
  change(filters: ExploreFilter[], touched: number): void;
}

export class FilterBar {
  readonly el: HTMLDivElement;
  private readonly chips = h('div', { class: 'x-chips', attrs: { role: 'list', 'aria-label': 'Filters' } });
  private readonly addBtn: HTMLButtonElement;
  private readonly countEl = h('span', { class: 'x-count', attrs: { role: 'status', 'aria-live': 'polite' } });
  private readonly form: HTMLFormElement;
  private readonly column = h('select', { class: 'x-input', attrs: { 'aria-label': 'Column' } });
  private readonly op = h('select', { class: 'x-input', attrs: { 'aria-label': 'Condition' } });
  private readonly text = h('input', { class: 'x-input x-text', attrs: { type: 'text', 'aria-label': 'Value', name: 'text' } });
  private readonly min = h('input', { class: 'x-input x-min', attrs: { type: 'text', 'aria-label': 'From', placeholder: 'from', name: 'min' } });
  private readonly max = h('input', { class: 'x-input x-max', attrs: { type: 'text', 'aria-label': 'To', placeholder: 'to', name: 'max' } });
  private readonly caseBox = h('input', { attrs: { type: 'checkbox', name: 'caseSensitive' } });
  private readonly negBox = h('input', { attrs: { type: 'checkbox', name: 'negate' } });
  private readonly caseLabel = h('label', { class: 'x-check' }, this.caseBox, 'Match case');
  private readonly negLabel = h('label', { class: 'x-check' }, this.negBox, 'Not');
  private readonly invalid = h('div', { class: 'x-filter-invalid', attrs: { role: 'alert', id: 'x-filter-invalid' } });
  private columns: ExploreColumn[] = [];
  private filters: ExploreFilter[] = [];
  private errors = new Map<number, string>();
  /** Index of the filter being edited; filters.length when adding. */
  private editing = -1;

  constructor(private readonly ev: FilterBarEvents) {
    this.addBtn = h('button', { class: 'btn secondary x-add-filter', attrs: { type: 'button' } }, xicon('add'), h('span', { class: 'btn-label' }, 'Add filter'));
    this.addBtn.addEventListener('click', () => this.openForm(this.filters.length));
    const apply = h('button', { class: 'btn x-apply', attrs: { type: 'submit' } }, 'Apply');
    const cancel = h('button', { class: 'btn secondary x-cancel', attrs: { type: 'button' } }, 'Cancel');
    cancel.addEventListener('click', () => this.closeForm());
    this.form = h('form', { class: 'x-filter-form', attrs: { 'aria-label': 'Filter condition', hidden: '' } },
      this.column, this.op, this.text, this.min, this.max, this.caseLabel, this.negLabel, apply, cancel, this.invalid);
    this.form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.apply();
    });
    this.form.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') this.closeForm();
    });
    this.column.addEventListener('change', () => this.syncOps());
    this.op.addEventListener('change', () => this.syncFields());
    for (const i of [this.text, this.min, this.max]) i.addEventListener('input', () => this.clearInvalid());
    this.el = h('div', { class: 'x-filterbar' }, h('div', { class: 'x-filter-row' }, xicon('filter', 'x-filter-icon'), this.chips, this.addBtn, this.countEl), this.form);
  }

  setColumns(columns: ExploreColumn[]): void {
    this.columns = columns;
    this.column.replaceChildren(...columns.map((c) => h('option', { attrs: { value: c.name } }, c.name)));
  }

  setFilters(filters: ExploreFilter[]): void {
    this.filters = filters;
    this.errors.clear();
    this.renderChips();
  }

  setEnabled(on: boolean): void {
    this.addBtn.disabled = !on;
    for (const b of this.chips.querySelectorAll('button')) b.disabled = !on;
    if (!on) this.closeForm();
  }

  setCount(text: string): void {
    this.countEl.textContent = text;
  }

  /** A service error for the filter at `index` (or for the bar when the index is unknown). */
  setError(index: number, message: string): void {
    this.errors.set(index, message);
    this.renderChips();
  }

  clearErrors(): void {
    if (this.errors.size === 0) return;
    this.errors.clear();
    this.renderChips();
  }

  private renderChips(): void {
    const items = this.filters.map((f, i) => {
      const err = this.errors.get(i);
      const errId = `x-ferr-${i}`;
      const edit = h('button', { class: 'x-chip-text', attrs: { type: 'button', title: 'Edit this filter', 'aria-describedby': err ? errId : undefined } }, describeFilter(f));
      edit.addEventListener('click', () => this.openForm(i));
      const remove = h('button', { class: 'x-chip-remove', attrs: { type: 'button', 'aria-label': `Remove filter: ${describeFilter(f)}`, title: 'Remove' } }, xicon('close'));
      remove.addEventListener('click', () => {
        const next = this.filters.filter((_, j) => j !== i);
        this.setFilters(next);
        announce('Filter removed');
        this.ev.change(next, -1);
      });
      return h('div', { class: `x-chip${err ? ' error' : ''}`, attrs: { role: 'listitem' } }, edit, remove,
        err ? h('span', { class: 'x-filter-error', attrs: { id: errId, role: 'alert' } }, err) : null);
    });
    const orphan = this.errors.get(-1);
    if (orphan) items.push(h('div', { class: 'x-chip error', attrs: { role: 'listitem' } }, h('span', { class: 'x-filter-error', attrs: { role: 'alert' } }, orphan)));
    this.chips.replaceChildren(...items);
  }

  private openForm(index: number): void {
    this.editing = index;
    const f = this.filters[index];
    this.form.hidden = false;
    this.clearInvalid();
    this.column.value = f?.column ?? this.columns[0]?.name ?? '';
    this.syncOps(f?.op);
    this.text.value = f && 'text' in f ? f.text : f?.op === 'in' ? f.values.join(', ') : '';
    this.min.value = f?.op === 'between' && f.min !== undefined ? String(f.min) : '';
    this.max.value = f?.op === 'between' && f.max !== undefined ? String(f.max) : '';
    this.caseBox.checked = !!(f && 'caseSensitive' in f && f.caseSensitive);
    this.negBox.checked = !!(f && 'negate' in f && f.negate);
    this.column.focus();
  }

  private closeForm(): void {
    if (this.form.hidden) return;
    this.form.hidden = true;
    this.editing = -1;
    this.addBtn.focus();
  }

  private kindOf(column: string): ExploreColumn['kind'] {
    return this.columns.find((c) => c.name === column)?.kind ?? 'other';
  }

  private syncOps(prefer?: FilterOp): void {
    const ops = opsFor(this.kindOf(this.column.value));
    const keep = prefer && ops.includes(prefer) ? prefer : ops.includes(this.op.value as FilterOp) ? this.op.value : ops[0];
    this.op.replaceChildren(...ops.map((o) => h('option', { attrs: { value: o } }, OP_LABEL[o])));
    this.op.value = keep ?? '';
    this.syncFields();
  }

  private syncFields(): void {
    const op = this.op.value as FilterOp;
    const kind = this.kindOf(this.column.value);
    this.text.hidden = op === 'between' || op === 'missing';
    this.text.placeholder = op === 'in' ? 'values, comma-separated' : op === 'regex' ? 'regular expression' : 'text';
    this.min.hidden = this.max.hidden = op !== 'between';
    const dates = kind === 'date' || kind === 'datetime';
    this.min.placeholder = dates ? 'from (2024-01-31)' : 'from';
    this.max.placeholder = dates ? 'to (2024-12-31)' : 'to';
    this.caseLabel.hidden = !(op === 'contains' || op === 'startsWith' || op === 'regex');
    this.negLabel.hidden = !canNegate(op);
    this.clearInvalid();
  }

  private clearInvalid(): void {
    this.invalid.textContent = '';
    for (const i of [this.text, this.min, this.max]) {
      i.removeAttribute('aria-invalid');
      i.removeAttribute('aria-describedby');
    }
  }

  private apply(): void {
    const input: FilterInput = {
      column: this.column.value,
      kind: this.kindOf(this.column.value),
      op: this.op.value as FilterOp,
      text: this.text.value,
      min: this.min.value,
      max: this.max.value,
      caseSensitive: this.caseBox.checked,
      negate: this.negBox.checked,
    };
    const built = buildFilter(input);
    if (!built.ok) {
      const field = built.field === 'text' ? this.text : built.field === 'min' ? this.min : this.max;
      field.setAttribute('aria-invalid', 'true');
      field.setAttribute('aria-describedby', 'x-filter-invalid');
      this.invalid.textContent = built.message;
      field.focus();
      return;
    }
    const at = this.editing < 0 ? this.filters.length : this.editing;
    const next = [...this.filters];
    next.splice(at, at < this.filters.length ? 1 : 0, built.filter);
    this.setFilters(next);
    this.closeForm();
    announce(`Filter applied: ${describeFilter(built.filter)}`);
    this.ev.change(next, at);
  }
}
