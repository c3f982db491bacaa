/**
 * The CLI prints what an answer's Markdown means, never its source (issue 24, point 7): the
 * service escapes data that could read as Markdown ("temp\_max"), and the CLI printed the
 * backslashes, asterisks and pipes as they were.
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { AnswerPrinter } from '../../src/cli/answerPrinter';
import { renderTerminalMarkdown } from '../../src/cli/terminalMarkdown';
import type { Block } from '../../src/shared/domain';
import { mdText } from '../../src/shared/markdownText';

const plain = (md: string): string => renderTerminalMarkdown(md, { color: false });

class Sink extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

describe('CLI: Markdown answers as terminal text', () => {
  it('prints escaped data as the data, emphasis and code without their marks', () => {
    const message = `I can't answer that from ${mdText('weather_2024.csv')}: nothing in the data matches "${mdText('foo_bar*')}". **Rome** has the highest average \`temp_max\`: **10**.`;
    assert.equal(plain(message), 'I can\'t answer that from weather_2024.csv: nothing in the data matches "foo_bar*". Rome has the highest average temp_max: 10.');
    assert.equal(plain(mdText('a <b> & c | d # e ~ f ! [g]')), 'a <b> & c | d # e ~ f ! [g]');
    assert.equal(plain('3 &amp; 4 &lt; 5 &#39;x&#39;'), '3 & 4 < 5 \'x\'');
  });

  it('draws lists with bullets, tables aligned, code indented, headings and links as text', () => {
    const out = plain([
      '## Revenue', '', 'Average `temp_max` by `city`:', '', '- Rome: 10', '- Oslo: 4', '',
      '1. first', '2. second', '', '| city | avg |', '|---|---:|', '| Rome | 10 |', '| Oslo\\_N | 4 |', '',
      '```sql', 'SELECT 1;', '```', '', 'See [the docs](https://example.com/docs).',
    ].join('\n'));
    assert.equal(out, [
      'Revenue', '', 'Average temp_max by city:', '', '• Rome: 10', '• Oslo: 4', '', '1. first', '2. second', '',
      'city    avg', '──────  ───', 'Rome     10', 'Oslo_N    4', '', '    SELECT 1;', '', 'See the docs (https://example.com/docs).',
    ].join('\n'));
    assert.doesNotMatch(out, /[\\*`|]/);
  });

  it('uses bold and colour on a terminal that takes them', () => {
    assert.equal(renderTerminalMarkdown('**Rome** has `temp_max`', { color: true }), '\u001b[1mRome\u001b[22m has \u001b[36mtemp_max\u001b[39m');
  });

  it('the printer renders a streamed message one finished block at a time, the same as all at once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'printer-'));
    try {
      const message = `Average \`temp_max\` by \`city\`:\n\n**Rome** has the highest average \`temp_max\` (10), followed by ${mdText('Oslo_N')} (4).\n\n- Rome: 10\n- Oslo: 4\n`;
      const print = async (parts: string[]): Promise<{ out: string; early: string }> => {
        const out = new Sink();
        const printer = new AnswerPrinter({ out, err: new Sink(), saveDir: dir });
        const msg = (content: string): Block => ({ type: 'MESSAGE', content, groupId: '1', stage: 'Respond' } as Block);
        for (const p of parts) printer.handle({ kind: 'BLOCK', block: msg(p) });
        // Finished blocks are printed before the message ends.
        await new Promise((r) => setTimeout(r, 10));
        const early = out.text;
        printer.handle({ kind: 'BLOCK', block: { type: 'QUESTIONS', content: ['average `temp_max` by month'], groupId: '-1', stage: 'Respond' } as Block });
        await printer.flush();
        return { out: out.text, early };
      };
      const whole = await print([message]);
      const streamed = await print(message.match(/[\s\S]{1,7}/g) ?? []);
      assert.equal(streamed.out, whole.out);
      assert.equal(whole.out, 'Average temp_max by city:\n\nRome has the highest average temp_max (10), followed by Oslo_N (4).\n\n• Rome: 10\n• Oslo: 4\n\nTry next:\n  • average temp_max by month\n\n');
      // The paragraph after it may still grow, and a list may still get items.
      assert.equal(streamed.early, 'Average temp_max by city:\n\n');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('the printer lists steps on stderr as they read, without the backticks of their titles', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'td-steps-'));
    try {
      const err = new Sink();
      const printer = new AnswerPrinter({ out: new Sink(), err, saveDir: dir });
      const step = (status: 'running' | 'done', name: string) => printer.handle({ kind: 'TASK', place: { groupId: '1', groupName: name, stage: 'Analyze' }, task: { id: '1', name, status, stage: 'Analyze' } });
      step('running', 'Read the question as: total `revenue` by month of `order_date` for "Asia"');
      step('done', 'Read the question as: total `revenue` by month of `order_date` for "Asia"');
      step('done', 'Average of temp\\_max');
      await printer.flush();
      assert.equal(err.text, [
        '… Read the question as: total revenue by month of order_date for "Asia"',
        '✓ Read the question as: total revenue by month of order_date for "Asia"',
        '✓ Average of temp_max',
        '',
      ].join('\n'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('the printer prints an answer\'s SQL as code and its follow-ups as plain questions, without markup', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'td-md-'));
    try {
      const out = new Sink();
      const printer = new AnswerPrinter({ out, err: new Sink(), saveDir: dir });
      printer.handle({ kind: 'BLOCK', block: { type: 'CODE', content: '```sql\nSELECT "region", sum("revenue")\nFROM sales;\n```', groupId: '1', stage: 'Respond' } as Block });
      printer.handle({ kind: 'BLOCK', block: { type: 'QUESTIONS', content: ['total `revenue` by `region` where `country` is "Chile"', 'total revenue by region where country is Chile'], groupId: '-1', stage: 'Respond' } as Block });
      await printer.flush();
      assert.doesNotMatch(out.text, /```|`revenue`/, out.text);
      assert.match(out.text, /SELECT "region", sum\("revenue"\)/, out.text);
      assert.match(out.text, /Try next:\n  • total revenue by region where country is Chile\n\n$/, out.text);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
