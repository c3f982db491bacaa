/**
 * The enlarged-image overlay: a modal dialog with the image scaled to fill the view (a chart's
 * vector drawing, or the picture at its aspect ratio) and a close button. Escape, the
 * close button or a click outside the image closes it, and focus returns to the image that
 * opened it.
 */
import { button, h } from './dom';
import { enlargedCopy } from './blocks/svgChart';
import { icon } from './icons';

export class ImageOverlay {
  readonly el: HTMLDivElement;
  private readonly img: HTMLImageElement;
  private readonly close: HTMLButtonElement;
  private opener: HTMLElement | undefined;
  /** The enlarged copy of an inline chart, when the image is one. */
  private chart: SVGSVGElement | undefined;

  constructor() {
    this.img = h('img', { class: 'overlay-image', attrs: { alt: '' } });
    this.close = button({ label: 'Close', icon: icon('close'), iconOnly: true, class: 'overlay-close', onClick: () => this.hide() });
    this.el = h('div', { class: 'overlay', attrs: { role: 'dialog', 'aria-modal': 'true', 'aria-label': 'Image' } }, this.close, this.img);
    this.el.hidden = true;
    this.el.addEventListener('click', (e) => {
      if (e.target === this.el) this.hide();
    });
    this.el.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        this.hide();
      } else if (e.key === 'Tab') {
        // The close button is the dialog's only control: keep focus inside the dialog.
        e.preventDefault();
        this.close.focus();
      }
    });
  }

  show(src: string, alt: string, opener: HTMLElement, svg?: SVGSVGElement): void {
    this.opener = opener;
    this.chart?.remove();
    this.chart = svg ? enlargedCopy(svg) : undefined;
    if (this.chart) {
      this.img.hidden = true;
      this.img.removeAttribute('src');
      this.el.appendChild(this.chart);
    } else {
      this.img.hidden = false;
      this.img.setAttribute('src', src);
    }
    this.img.alt = alt;
    this.el.setAttribute('aria-label', alt);
    this.el.hidden = false;
    this.close.focus();
  }

  hide(): void {
    if (this.el.hidden) return;
    this.el.hidden = true;
    this.img.removeAttribute('src');
    this.chart?.remove();
    this.chart = undefined;
    this.opener?.focus();
    this.opener = undefined;
  }
}
