/**
 * IMAGE blocks, shown only from the host's local copy: the URI must start with one of the
 * panel's resource roots (the extension's cache as a webview URI). Anything else is refused here
 * as well as by the CSP, so a host bug cannot turn into a remote load.
 */
import type { FileRef } from '../../shared/domain';
import { fileKeyOf, type ImageData } from '../../shared/protocol';
import { button, h } from '../dom';
import { icon } from '../icons';
import type { BlockContext, BlockView } from './blockView';
import { chartElement } from './svgChart';

/**
 * True when `uri` lies under one of `roots`: it starts with the root (as a folder) and the rest
 * is a plain relative path, with no `..`/`.` segments, backslashes, encoded dots or separators,
 * whitespace or query, so nothing can climb out of the cache folder.
 */
export function isLocalResource(uri: string, roots: readonly string[]): boolean {
  return roots.some((root) => {
    if (root.length === 0) return false;
    const base = root.endsWith('/') ? root : `${root}/`;
    if (!uri.startsWith(base)) return false;
    const rest = uri.slice(base.length);
    return rest.length > 0 && !/[\s\\?#]|%2e|%2f|%5c/i.test(rest) && !/(^|\/)\.\.?(\/|$)/.test(rest);
  });
}

export function altText(name: string): string {
  const base = name.replace(/\.[A-Za-z0-9]{1,5}$/, '').replace(/[_-]+/g, ' ').trim();
  return base || 'Chart';
}

export class ImageBlockView implements BlockView {
  readonly el: HTMLElement;
  readonly fileKey: string;
  private readonly frame: HTMLDivElement;
  private readonly save: HTMLButtonElement;
  private readonly alt: string;

  constructor(content: FileRef, private readonly ctx: BlockContext) {
    this.fileKey = fileKeyOf({ type: 'IMAGE', content });
    const name = content.name || 'image';
    this.alt = altText(name);
    this.save = button({
      label: 'Save As…', icon: icon('save'), iconOnly: true,
      onClick: () => ctx.host.post({ type: 'saveImage', turnId: ctx.turnId, fileKey: this.fileKey }),
    });
    this.frame = h('div', { class: 'image-frame' });
    this.el = h(
      'figure',
      { class: 'block image-block', attrs: { 'aria-label': `Image ${name}` } },
      h(
        'figcaption',
        { class: 'block-header' },
        icon('image'),
        h('span', { class: 'block-title', attrs: { title: name } }, name),
        h('div', { class: 'block-toolbar', attrs: { role: 'toolbar', 'aria-label': `${name} actions` } }, this.save),
      ),
      this.frame,
    );
    this.setImage({ status: 'loading' });
  }

  setImage(data: ImageData): void {
    this.save.disabled = data.status !== 'ready';
    if (data.status === 'ready') {
      if (!isLocalResource(data.uri, this.ctx.resourceRoots())) {
        this.save.disabled = true;
        this.note('error', 'This image was not shown because it is not a local copy.');
        return;
      }
      // A chart drawn as SVG is shown inline so it takes the theme's colours; anything else, or a
      // drawing the sanitizer rejects, as an image from the local copy.
      const chart = data.svg !== undefined ? chartElement(data.svg, this.alt) : undefined;
      const picture = chart ?? h('img', { class: 'image', attrs: { alt: this.alt, src: data.uri } });
      const open = h('button', { class: 'image-open', attrs: { type: 'button', 'aria-label': `Enlarge ${this.alt}`, title: 'Click to enlarge' } }, picture);
      open.addEventListener('click', () => this.ctx.enlargeImage(data.uri, this.alt, open, chart));
      this.frame.replaceChildren(open);
      return;
    }
    if (data.status === 'loading') this.note('loading', 'Downloading the image…');
    else if (data.status === 'expired') this.note('expired', 'The link to this image has expired and no copy was saved, so it cannot be shown.');
    else this.note('error', `The image could not be loaded: ${data.message}`);
  }

  private note(kind: 'loading' | 'expired' | 'error', text: string): void {
    const p = h('p', { class: `block-note ${kind}`, attrs: kind === 'loading' ? { role: 'status' } : {} });
    if (kind !== 'loading') p.appendChild(icon(kind === 'error' ? 'error' : 'info'));
    p.append(text);
    this.frame.replaceChildren(p);
  }
}
