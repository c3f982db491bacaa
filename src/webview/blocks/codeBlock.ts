/**
 * CODE blocks: the service sends one fenced block; we show it highlighted with its language and
 * three actions that the host carries out (an untitled editor in that language, the clipboard,
 * the last active editor).
 */
import { announce, button, h } from '../dom';
import { icon } from '../icons';
import type { BlockContext, BlockView } from './blockView';
import { cleanLanguage, highlightHtml, vscodeLanguageId } from './highlight';

/** Splits "```lang\ncode\n```" into its language and code; text without a fence is all code. */
export function parseFence(content: string): { language: string; code: string } {
  const text = content.replace(/\r\n/g, '\n');
  const open = /^[ \t]*\n*[ \t]*(`{3,}|~{3,})([^\n]*)\n/.exec(text);
  if (!open) return { language: '', code: text.replace(/^\n+|\n+$/g, '') };
  const fence = open[1] as string;
  let body = text.slice(open[0].length);
  const lastNl = body.replace(/\s+$/, '').lastIndexOf('\n');
  const lastLine = body.slice(lastNl + 1).trim();
  if (lastLine.length >= fence.length && lastLine === (fence[0] as string).repeat(lastLine.length)) {
    body = lastNl < 0 ? '' : body.slice(0, lastNl);
  }
  return { language: cleanLanguage(open[2]), code: body };
}

export class CodeBlockView implements BlockView {
  readonly el: HTMLDivElement;

  constructor(content: string, ctx: BlockContext) {
    const { language, code } = parseFence(content);
    const langId = vscodeLanguageId(language);
    const label = language || 'text';
    const copy = button({
      label: 'Copy', icon: icon('copy'), iconOnly: true,
      onClick: () => {
        ctx.host.post({ type: 'copyText', text: code });
        copy.classList.add('done');
        announce('Code copied');
        window.setTimeout(() => copy.classList.remove('done'), 1500);
      },
    });
    const toolbar = h(
      'div',
      { class: 'block-toolbar', attrs: { role: 'toolbar', 'aria-label': `${label} code actions` } },
      button({ label: 'Open in Editor', icon: icon('openEditor'), iconOnly: true, onClick: () => ctx.host.post({ type: 'openCode', code, language: langId, turnId: ctx.turnId }) }),
      copy,
      button({ label: 'Insert at Cursor', icon: icon('insert'), iconOnly: true, onClick: () => ctx.host.post({ type: 'insertCode', code, language: langId }) }),
    );
    const codeEl = h('code', { class: language ? `hljs language-${language}` : 'hljs' });
    // highlight.js escapes every character of the code it returns (and plain code is escaped by us).
    codeEl.innerHTML = highlightHtml(code, language);
    this.el = h(
      'div',
      { class: 'block code-block', attrs: { role: 'group', 'aria-label': `${label} code` } },
      h('div', { class: 'block-header' }, h('span', { class: 'code-language' }, label), toolbar),
      h('pre', { class: 'code', attrs: { tabindex: '0' } }, codeEl),
    );
  }
}
