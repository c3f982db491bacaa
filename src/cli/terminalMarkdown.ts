/**
 * Markdown answers as terminal text. The service writes MESSAGE text as Markdown, with backslash
 * escapes wherever data could read as Markdown ("temp\_max"); printing that source showed the
 * escapes and the asterisks. marked's lexer reads it as the panel does, and this prints what it
 * means: plain text, bold and code in colour on a terminal that takes colour (plain otherwise),
 * lists with bullets, tables aligned, code fences as indented code.
 */
import { Lexer, type Token, type Tokens } from 'marked';
import { renderTextTable } from './textTable';

export interface TerminalStyle {
  /** ANSI bold, italics and colour (a TTY without NO_COLOR); off: plain text only. */
  color: boolean;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** HTML entities in text tokens (`3 &amp; 4` means "3 & 4"; the lexer leaves them as written). */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const cp = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

class TerminalRenderer {
  constructor(private readonly style: TerminalStyle) {}

  /** Table cells are plain: the table aligns by the characters it sees. */
  private plainCells(): TerminalRenderer {
    return this.style.color ? new TerminalRenderer({ color: false }) : this;
  }

  private sgr(text: string, on: string, off: string): string {
    return this.style.color && text !== '' ? `\u001b[${on}m${text}\u001b[${off}m` : text;
  }

  inline(tokens: readonly Token[] | undefined): string {
    let out = '';
    for (const t of tokens ?? []) out += this.inlineToken(t);
    return out;
  }

  private inlineToken(t: Token): string {
    switch (t.type) {
      case 'escape':
        return (t as Tokens.Escape).text;
      case 'text': {
        const tt = t as Tokens.Text;
        return tt.tokens ? this.inline(tt.tokens) : decodeEntities(tt.text);
      }
      case 'strong':
        return this.sgr(this.inline((t as Tokens.Strong).tokens), '1', '22');
      case 'em':
        return this.sgr(this.inline((t as Tokens.Em).tokens), '3', '23');
      case 'del':
        return this.inline((t as Tokens.Del).tokens);
      case 'codespan':
        return this.sgr((t as Tokens.Codespan).text, '36', '39');
      case 'link': {
        const l = t as Tokens.Link;
        const text = this.inline(l.tokens);
        return text === l.href ? text : `${text} (${l.href})`;
      }
      case 'image':
        return `[${(t as Tokens.Image).text || 'image'}]`;
      case 'br':
        return '\n';
      case 'html':
        return (t as Tokens.HTML).text;
      default:
        return 'tokens' in t && Array.isArray(t.tokens) ? this.inline(t.tokens as Token[]) : ('text' in t && typeof t.text === 'string' ? t.text : t.raw);
    }
  }

  /** Block tokens as lines of text, blocks separated by a blank line. */
  blocks(tokens: readonly Token[], indent = ''): string[] {
    const out: string[] = [];
    for (const t of tokens) {
      const lines = this.block(t, indent);
      if (lines.length === 0) continue;
      if (out.length > 0) out.push('');
      out.push(...lines);
    }
    return out;
  }

  private block(t: Token, indent: string): string[] {
    const lines = (text: string): string[] => text.split('\n').map((l) => indent + l);
    switch (t.type) {
      case 'space':
        return [];
      case 'paragraph':
        return lines(this.inline((t as Tokens.Paragraph).tokens));
      case 'heading':
        return lines(this.sgr(this.inline((t as Tokens.Heading).tokens), '1', '22'));
      case 'code':
        return (t as Tokens.Code).text.split('\n').map((l) => `${indent}    ${l}`);
      case 'blockquote':
        return this.blocks((t as Tokens.Blockquote).tokens).map((l) => `${indent}│ ${l}`);
      case 'hr':
        return [`${indent}${'─'.repeat(40)}`];
      case 'list':
        return this.list(t as Tokens.List, indent);
      case 'table': {
        const table = t as Tokens.Table;
        const plain = this.plainCells();
        const rows = [table.header.map((c) => plain.inline(c.tokens)), ...table.rows.map((r) => r.map((c) => plain.inline(c.tokens)))];
        return lines(renderTextTable(rows));
      }
      case 'html':
        return lines((t as Tokens.HTML).text.replace(/\n+$/, ''));
      case 'text': {
        const tt = t as Tokens.Text;
        return lines(tt.tokens ? this.inline(tt.tokens) : decodeEntities(tt.text));
      }
      default:
        return lines(t.raw.replace(/\n+$/, ''));
    }
  }

  private list(list: Tokens.List, indent: string): string[] {
    const out: string[] = [];
    const start = typeof list.start === 'number' ? list.start : 1;
    list.items.forEach((item, i) => {
      const marker = list.ordered ? `${start + i}.` : '•';
      const body = this.blocks(item.tokens, `${indent}${' '.repeat(marker.length + 1)}`);
      // A tight list's items are single lines: no blank line between their blocks.
      const kept = list.loose ? body : body.filter((l) => l.trim() !== '');
      const first = kept[0] ?? '';
      out.push(`${indent}${marker} ${first.slice(indent.length + marker.length + 1)}`, ...kept.slice(1));
      if (list.loose && i < list.items.length - 1) out.push('');
    });
    return out;
  }
}

/** Markdown as terminal text (no trailing newline). */
export function renderTerminalMarkdown(markdown: string, style: TerminalStyle): string {
  const tokens = new Lexer({ gfm: true }).lex(markdown);
  return new TerminalRenderer(style).blocks(tokens).join('\n');
}

/**
 * One line of inline Markdown (a step's title: "Read the question as: total `revenue`") as plain
 * text: code spans without their backticks, escapes without their backslash, no colour (the line
 * goes to stderr, beside progress). Block syntax is not read: "1. " or "# " at the start stay text.
 */
export function renderTerminalInline(markdown: string): string {
  return new TerminalRenderer({ color: false }).inline(new Lexer({ gfm: true }).inlineTokens(markdown)).replace(/\s*\n\s*/g, ' ');
}
