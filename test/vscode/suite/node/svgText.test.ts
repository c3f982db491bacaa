/**
 * Which cached images the panel host sends as SVG text (shown inline in the theme's colours):
 * decided by content and size, never by the service's file name.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSvgText } from '../../../../src/extension/panel/fileCache';
import { renderChart } from '../../../../src/server/engine/charts';
import { PROTOCOL_LIMITS } from '../../../../src/shared/protocol';

describe('panel host: SVG charts sent as text', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svg-text-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, body: string | Buffer): string => {
    const p = join(dir, name);
    writeFileSync(p, body);
    return p;
  };

  it('sends a chart the local service drew, whatever the file is called', async () => {
    const svg = await renderChart({ kind: 'line', title: 'Orders by month', x: 'm', y: 'n', xType: 'temporal', rows: [{ m: '2024-01-01', n: 3 }, { m: '2024-02-01', n: 5 }] });
    assert.equal(await readSvgText(file('chart.bin', svg)), svg);
    const declared = `\uFEFF<?xml version="1.0" encoding="UTF-8"?>\n<!-- drawn elsewhere -->\n<!DOCTYPE svg>\n${svg}`;
    assert.equal(await readSvgText(file('decl.svg', declared)), declared);
  });

  it('leaves pictures and oversized drawings to be shown as images', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    assert.equal(await readSvgText(file('chart.svg', png)), undefined, 'a PNG named .svg');
    assert.equal(await readSvgText(file('page.svg', '<html><svg></svg></html>')), undefined);
    const huge = `<svg xmlns="http://www.w3.org/2000/svg">${' '.repeat(PROTOCOL_LIMITS.svg)}</svg>`;
    assert.equal(await readSvgText(file('huge.svg', huge)), undefined, 'over the message limit');
  });
});
