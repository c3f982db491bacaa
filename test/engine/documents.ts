/**
 * Builders for small but real PDF, DOCX and PPTX files, written byte by byte (PDF) or as the
 * minimal OOXML package the formats require (DOCX/PPTX), so document tests need no fixtures.
 */
import JSZip from 'jszip';

function pdfString(text: string): string {
  return `(${text.replace(/[\\()]/g, '\\$&')})`;
}

/** A PDF with one page per entry; each page holds its lines in Helvetica. */
export function makePdf(pages: string[][]): Buffer {
  const objects: string[] = [];
  const pageIds = pages.map((_p, i) => 3 + i * 2);
  const fontId = 3 + pages.length * 2;
  objects.push('<< /Type /Catalog /Pages 2 0 R >>');
  objects.push(`<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`);
  pages.forEach((lines, i) => {
    const content = `BT /F1 12 Tf 72 720 Td ${lines.map((l, j) => `${j > 0 ? '0 -16 Td ' : ''}${pdfString(l)} Tj`).join(' ')} ET`;
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${pageIds[i]! + 1} 0 R /Resources << /Font << /F1 ${fontId} 0 R >> >> >>`);
    objects.push(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
  });
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A DOCX whose body has one paragraph per entry. */
export async function makeDocx(paragraphs: string[]): Promise<Buffer> {
  const zip = new JSZip();
  zip.file('[Content_Types].xml', '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>');
  zip.file('_rels/.rels', '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>');
  const body = paragraphs.map((p) => `<w:p><w:r><w:t xml:space="preserve">${esc(p)}</w:t></w:r></w:p>`).join('');
  zip.file('word/document.xml', `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`);
  return zip.generateAsync({ type: 'nodebuffer' });
}

/** A PPTX with one slide per entry, each line a paragraph (split into two runs to test joining). */
export async function makePptx(slides: string[][]): Promise<Buffer> {
  const zip = new JSZip();
  zip.file('[Content_Types].xml', '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>');
  slides.forEach((lines, i) => {
    const paras = lines.map((l) => {
      const mid = Math.floor(l.length / 2);
      return `<a:p><a:r><a:rPr lang="en-US"/><a:t>${esc(l.slice(0, mid))}</a:t></a:r><a:r><a:t>${esc(l.slice(mid))}</a:t></a:r></a:p>`;
    }).join('');
    zip.file(`ppt/slides/slide${i + 1}.xml`, `<?xml version="1.0" encoding="UTF-8"?><p:sld xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"><p:cSld><p:spTree><p:sp><p:txBody>${paras}</p:txBody></p:sp></p:spTree></p:cSld></p:sld>`);
  });
  return zip.generateAsync({ type: 'nodebuffer' });
}

/** A small refund policy in Markdown: numbered sections, a list starting at 3, amounts in several spellings. */
export const POLICY_MD = [
  '# Expense and refund policy', '',
  '## 1. Scope', '', 'This policy covers refunds to customers and expense claims by staff.', '',
  '## 2. Approvals', '',
  'Refunds follow the approval chain below.', '',
  '3. Refunds up to 200 dollars are approved by the support agent.',
  '4. Refunds between 200 and 1,000 dollars need a team lead.',
  '5. Refunds above $1,000 must be signed off by the finance director.', '',
  '## 3. Currencies', '',
  'Refunds in dollars are paid from the US account, refunds in euros from the EU account.',
  'Dollar refunds of any size are logged, and the refund desk answers questions about dollars.', '',
  '## 4. Travel', '', 'Travel expenses over 500 EUR need a manager\'s approval. Hotel nights cost at most £150 in London.', '',
].join('\n');
