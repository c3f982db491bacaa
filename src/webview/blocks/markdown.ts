/**
 * Markdown for MESSAGE blocks: marked turns text into HTML, DOMPurify turns that into a safe DOM
 * fragment. Everything the service writes passes through here, so the policy is strict:
 * - no images from markdown (answers' images arrive as IMAGE blocks from the local cache; a
 *   markdown image would be a remote load), shown as their alt text instead;
 * - links keep only http(s) targets, moved from `href` to `data-href` so nothing navigates
 *   inside the webview: a click posts `openLink` and the host opens it after its own check;
 * - no styles, forms, frames, media, SVG or MathML; no ids/names (DOM clobbering).
 */
import DOMPurify, { type Config } from 'dompurify';
import { Marked } from 'marked';
import { escapeHtml } from '../../shared/html';
import { cleanLanguage, highlightHtml } from './highlight';

const marked = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  renderer: {
    code({ text, lang }) {
      const language = cleanLanguage(lang);
      const cls = language ? ` class="hljs language-${language}"` : ' class="hljs"';
      return `<pre class="md-code"><code${cls}>${highlightHtml(text.replace(/\n$/, ''), language)}</code></pre>\n`;
    },
    image({ text }) {
      const alt = text.trim() || 'image';
      return `<span class="md-image-alt">[${escapeHtml(alt)}]</span>`;
    },
  },
});

const HTTP_URL = /^https?:\/\/[^\s]+$/i;

const PURIFY_CONFIG: Config & { RETURN_DOM_FRAGMENT: true } = {
  RETURN_DOM_FRAGMENT: true,
  USE_PROFILES: { html: true },
  FORBID_TAGS: [
    'style', 'img', 'form', 'input', 'button', 'textarea', 'select', 'option', 'iframe', 'frame', 'frameset',
    'object', 'embed', 'link', 'meta', 'base', 'video', 'audio', 'source', 'picture', 'track', 'dialog',
    'template', 'slot', 'canvas', 'map', 'area', 'svg', 'math', 'marquee',
  ],
  FORBID_ATTR: ['style', 'id', 'name', 'target', 'srcset', 'action', 'formaction', 'background', 'poster', 'ping', 'download'],
  ALLOWED_URI_REGEXP: /^https?:/i,
  // DOMPurify checks every attribute not listed as URI-safe against ALLOWED_URI_REGEXP, so the
  // strict regexp above would drop `<ol start="5">` and a quoted list would count from 1 again.
  ADD_URI_SAFE_ATTR: ['start'],
  ALLOW_DATA_ATTR: false,
  SANITIZE_NAMED_PROPS: true,
};

/**
 * A private DOMPurify instance with its config set once: passing a config to every `sanitize`
 * call makes DOMPurify rebuild its allow-lists each time, which dominated streaming profiles.
 */
let purifier: ReturnType<typeof DOMPurify> | undefined;

/** Class names markdown may carry: highlight.js tokens and our renderer's own. Anything else
 * (an answer's raw HTML imitating the panel's buttons or overlays) is dropped. */
const ALLOWED_CLASS = /^(hljs(-[\w-]+)?|language-[\w+#.-]+|md-code|md-image-alt)$/;

function instance(): ReturnType<typeof DOMPurify> {
  if (purifier) return purifier;
  const p = DOMPurify(window);
  p.setConfig(PURIFY_CONFIG);
  // One afterSanitizeAttributes hook does all of our rewriting: an uponSanitizeAttribute hook
  // would make DOMPurify copy its attribute allow-list for every element it visits.
  p.addHook('afterSanitizeAttributes', (node) => {
    const cls = node.getAttribute('class');
    if (cls !== null) {
      const kept = cls.split(/\s+/).filter((c) => ALLOWED_CLASS.test(c)).join(' ');
      if (kept) node.setAttribute('class', kept);
      else node.removeAttribute('class');
    }
    if (node.nodeName !== 'A') return;
    const href = node.getAttribute('href') ?? '';
    node.removeAttribute('href');
    if (HTTP_URL.test(href)) {
      node.setAttribute('data-href', href);
      node.setAttribute('role', 'link');
      node.setAttribute('tabindex', '0');
      node.setAttribute('title', href);
      node.setAttribute('class', 'md-link');
    } else {
      node.removeAttribute('title');
      node.setAttribute('class', 'md-dead-link');
    }
  });
  purifier = p;
  return p;
}

/** Sanitized DOM for one markdown text. */
export function renderMarkdown(text: string): DocumentFragment {
  const html = marked.parse(text, { async: false });
  // setConfig made RETURN_DOM_FRAGMENT the instance's mode; the typings only follow per-call configs.
  const out: unknown = instance().sanitize(html);
  if (!(out instanceof DocumentFragment)) throw new Error('DOMPurify did not return a fragment');
  return out;
}

/**
 * Small answers in the shapes answers take, rendered once each in idle time after the panel
 * starts: the first render compiles marked, DOMPurify and highlight.js (50-100 ms), which would
 * otherwise stall the first frame of the first answer. One sample per idle callback keeps each
 * step short.
 */
const WARM_UP = [
  '## Revenue\n\nEurope leads with **42%**, see [the report](https://example.com/r) and `sales.csv`.\n\n- one\n- two\n\n> Note: figures exclude returns.\n',
  '| region | revenue |\n|---|---:|\n| Europe | 12.5 |\n| Asia | 9.75 |\n',
  '```python\nimport pandas as pd\ndf = pd.read_csv("sales.csv")\nprint(df.revenue.sum())\n```\n\n```sql\nSELECT region, SUM(revenue) FROM sales GROUP BY 1\n```\n',
];

export function warmUpMarkdown(): void {
  if (typeof requestIdleCallback !== 'function') return;
  const next = (i: number): void => {
    const sample = WARM_UP[i];
    if (sample === undefined) return;
    requestIdleCallback(() => {
      renderMarkdown(sample);
      next(i + 1);
    });
  };
  next(0);
}
