import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDbStore } from '../../src/server/duckdb/duckDbStore';
import { decodeXmlText, docxHtmlToText, slideText } from '../../src/server/duckdb/officeText';
import { IngestError } from '../../src/server/engine';
import type { DataSource } from '../../src/shared/domain';
import { makeDocx, makePdf, makePptx } from './documents';

const source = (id: string, fileName: string): DataSource => ({ id, datasetId: 'd1', name: fileName, fileName, type: 'FILE', status: 'synching' });

describe('document ingestion (PDF, DOCX, PPTX)', function () {
  this.timeout(60_000);
  let dir: string;
  let store: DuckDbStore;
  const never = (): AbortSignal => new AbortController().signal;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'team-data-docs-'));
    store = await DuckDbStore.open(join(dir, 'db'));
  });
  after(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function ingest(id: string, name: string, bytes: Buffer | string): Promise<string | undefined> {
    const path = join(dir, `${id}.bin`);
    await writeFile(path, bytes);
    const r = await store.ingest(source(id, name), path, never());
    assert.equal(r.kind, 'text');
    return store.readText(id);
  }

  it('extracts PDF text page by page, pages separated by a form feed', async () => {
    const text = await ingest('p1', 'Guide.PDF', makePdf([['Refunds (full) are issued within 14 days.', 'Contact support.'], ['Page two talks about shipping.']]));
    assert.ok(text);
    const pages = text.split('\f');
    assert.equal(pages.length, 2);
    assert.match(pages[0] ?? '', /Refunds \(full\) are issued within 14 days\.\s+Contact support\./);
    assert.match(pages[1] ?? '', /Page two talks about shipping\./);
  });

  it('extracts DOCX paragraphs with mammoth', async () => {
    const text = await ingest('w1', 'memo.docx', await makeDocx(['Onboarding guide', 'New hires get a laptop & a badge on day one.']));
    assert.match(text ?? '', /Onboarding guide\s+New hires get a laptop & a badge on day one\./);
  });

  it('extracts PPTX slides in slide order (2 before 10), runs joined, entities decoded', async () => {
    const slides = Array.from({ length: 11 }, (_v, i) => [`Slide number ${i + 1} <title>`, `Body of ${i + 1}`]);
    const text = await ingest('s1', 'deck.pptx', await makePptx(slides));
    const parts = (text ?? '').split('\f').map((s) => s.trim());
    assert.equal(parts.length, 11);
    assert.equal(parts[1], 'Slide number 2 <title>\nBody of 2');
    assert.equal(parts[9], 'Slide number 10 <title>\nBody of 10');
  });

  it('refuses legacy .doc/.ppt with a save-as hint, and documents without text', async () => {
    const fails = async (name: string, bytes: Buffer | string, re: RegExp): Promise<void> => {
      const path = join(dir, `x-${name}`);
      await writeFile(path, bytes);
      await assert.rejects(store.ingest(source(`f-${name}`, name), path, never()), (e: unknown) => e instanceof IngestError && re.test(e.message));
    };
    await fails('old.doc', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0, 0]), /save it as \.docx/);
    await fails('old.ppt', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0, 0]), /save it as \.pptx/);
    await fails('scan.pdf', makePdf([[]]), /no extractable text/);
    await fails('fake.docx', makePdf([['x']]), /not a \.docx file: it looks like a PDF document/);
    await fails('empty.pptx', await makeDocx(['no slides here']), /has no slides/);
  });

  it('decodes XML text the way slide XML needs', () => {
    assert.equal(decodeXmlText('a &amp; b &lt;c&gt; &#233;&#x4E2D; &bogus;'), 'a & b <c> é中 &bogus;');
    assert.equal(slideText('<a:p><a:r><a:t>One</a:t></a:r></a:p><a:p><a:r><a:t xml:space="preserve"> two </a:t></a:r><a:r><a:t>three</a:t></a:r></a:p>'), 'One\ntwo three');
  });

  it('writes slide titles as headings and the list numbers PowerPoint draws (startAt, levels, bullets)', () => {
    const para = (text: string, ppr = ''): string => `<a:p>${ppr}<a:r><a:t>${text}</a:t></a:r></a:p>`;
    const auto = (lvl: number, start?: number): string => `<a:pPr lvl="${lvl}"><a:buAutoNum type="arabicPeriod"${start ? ` startAt="${start}"` : ''}/></a:pPr>`;
    const xml = '<p:sld><p:cSld><p:spTree>'
      + `<p:sp><p:txBody>${para('Refunds above 1,000 USD', auto(0, 5))}${para('need the director', auto(1))}${para('and a receipt', auto(1))}${para('Refunds above 10k', auto(0))}${para('A note')}${para('Bullet', '<a:pPr><a:buChar char="•"/></a:pPr>')}</p:txBody></p:sp>`
      + `<p:sp><p:nvSpPr><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:txBody>${para('Approvals')}</p:txBody></p:sp>`
      + '</p:spTree></p:cSld></p:sld>';
    assert.equal(slideText(xml), '# Approvals\n5. Refunds above 1,000 USD\n1. need the director\n2. and a receipt\n6. Refunds above 10k\nA note\n- Bullet');
  });

  it('writes Word headings and numbered lists (which are not text runs) into the text', () => {
    const html = '<h1>Refund policy</h1><p>Intro &amp; scope.</p><h2>Approvals</h2><ol><li>Up to 200 dollars</li><li>Above $1,000<ol><li>director</li></ol></li></ol>'
      + '<ul><li>note</li></ul><table><tr><td><p>Tier</p></td><td><p>Limit</p></td></tr></table><p>line<br />break</p>';
    assert.equal(docxHtmlToText(html), '# Refund policy\n\nIntro & scope.\n\n## Approvals\n1. Up to 200 dollars\n2. Above $1,000\n1. director\n- note\nTier | Limit\n\nline\nbreak');
  });
});
