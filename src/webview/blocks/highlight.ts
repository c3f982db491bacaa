/**
 * Syntax highlighting with highlight.js core and only the languages answers use, to keep the
 * bundle small. highlight.js escapes the code it returns, and the markdown path runs DOMPurify
 * over the result anyway.
 */
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import python from 'highlight.js/lib/languages/python';
import r from 'highlight.js/lib/languages/r';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import yaml from 'highlight.js/lib/languages/yaml';
import { escapeHtml } from '../../shared/html';

hljs.registerLanguage('bash', bash);
hljs.registerLanguage('javascript', javascript);
hljs.registerLanguage('json', json);
hljs.registerLanguage('python', python);
hljs.registerLanguage('r', r);
hljs.registerLanguage('sql', sql);
hljs.registerLanguage('typescript', typescript);
hljs.registerLanguage('yaml', yaml);

/** Fence names seen in answers -> highlight.js language. */
const ALIASES: Record<string, string> = {
  py: 'python', python3: 'python', js: 'javascript', mjs: 'javascript', node: 'javascript', ts: 'typescript',
  sh: 'bash', shell: 'bash', zsh: 'bash', console: 'bash', yml: 'yaml', rscript: 'r',
  postgresql: 'sql', postgres: 'sql', mysql: 'sql', duckdb: 'sql', sqlite: 'sql', tsql: 'sql', plsql: 'sql',
};

/** highlight.js language -> VS Code language id (for Open in Editor / Insert at Cursor). */
const VSCODE_IDS: Record<string, string> = {
  bash: 'shellscript', javascript: 'javascript', json: 'json', python: 'python', r: 'r', sql: 'sql',
  typescript: 'typescript', yaml: 'yaml',
};

/** Code longer than this is shown plain: highlighting it would stall the frame it arrives in. */
const MAX_HIGHLIGHT = 200_000;

/** The fence's language as written, reduced to a safe label (letters, digits, + # . - _). */
export function cleanLanguage(lang: string | undefined): string {
  return (lang ?? '').trim().split(/\s+/)[0]?.replace(/[^\w+#.-]/g, '').slice(0, 32).toLowerCase() ?? '';
}

export function hljsLanguage(lang: string): string | undefined {
  const l = ALIASES[lang] ?? lang;
  return hljs.getLanguage(l) ? l : undefined;
}

/** Fence names highlight.js does not cover here -> VS Code language id. */
const OTHER_IDS: Record<string, string> = { md: 'markdown', markdown: 'markdown', text: 'plaintext', txt: 'plaintext', csv: 'csv' };

/** The VS Code language id for a fence language; unknown ones pass through, empty is plaintext. */
export function vscodeLanguageId(lang: string): string {
  const known = hljsLanguage(lang);
  if (known) return VSCODE_IDS[known] ?? known;
  return OTHER_IDS[lang] ?? (lang || 'plaintext');
}

/** Highlighted HTML for `code` (escaped plain text when the language is unknown or code is huge). */
export function highlightHtml(code: string, lang: string): string {
  const language = hljsLanguage(lang);
  if (!language || code.length > MAX_HIGHLIGHT) return escapeHtml(code);
  try {
    return hljs.highlight(code, { language, ignoreIllegals: true }).value;
  } catch {
    return escapeHtml(code);
  }
}
