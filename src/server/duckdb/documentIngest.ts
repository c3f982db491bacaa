/**
 * PDF, DOCX and PPTX -> a text document for retrieval, with well-kept parsers: pdf.js (Mozilla) for
 * PDF, mammoth for DOCX, JSZip over the slide XML for PPTX (officeText.ts writes headings and list
 * numbers of both Office formats into the text). Pages and slides are separated by a form
 * feed (`\f`) so retrieval can cite page/slide numbers. Legacy binary .doc/.ppt are refused earlier
 * (see fileKinds.ts): no maintained JS library reads them.
 */
import { readFile, stat } from 'node:fs/promises';
import type { DuckDBConnection } from '@duckdb/node-api';
import type JSZip from 'jszip';
import { IngestError, type IngestResult } from '../engine';
import { replaceSource } from './catalog';
import { magicKind } from './fileSniff';
import { DOCX_STYLE_MAP, docxHtmlToText, slideText } from './officeText';
import { summarizeZip } from './zipGuard';
import { formatBytes } from '../../shared/byteSize';

/** Parsers hold the whole file (and its parsed form) in memory. */
export const MAX_DOCUMENT_BYTES = 100 * 1024 * 1024;
/** Declared unpacked size of a DOCX/PPTX (ZIP bomb guard). */
const MAX_UNCOMPRESSED_BYTES = 512 * 1024 * 1024;
/** Extracted text kept per document; beyond it the text is cut (retrieval needs passages, not books). */
const MAX_TEXT_CHARS = 32 * 1024 * 1024;
/** Page/slide separator inside the stored text. */
export const PAGE_BREAK = '\f';

export type DocumentKind = 'pdf' | 'docx' | 'pptx';

export interface DocumentArgs {
  conn: DuckDBConnection;
  sourceId: string;
  filePath: string;
  fileName: string;
  kind: DocumentKind;
  signal: AbortSignal;
}

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const PDF = [0x25, 0x50, 0x44, 0x46];
const startsWith = (buf: Uint8Array, sig: number[]): boolean => sig.every((b, i) => buf[i] === b);

/** Minimal shape of pdf.js used here (its own types come from an ESM-only entry point). */
interface PdfJs {
  getDocument(src: { data: Uint8Array; isEvalSupported: boolean; disableFontFace: boolean; verbosity: number; useSystemFonts: boolean }): {
    promise: Promise<PdfDocument>;
  };
}
interface PdfDocument {
  numPages: number;
  getPage(n: number): Promise<{ getTextContent(): Promise<{ items: unknown[] }>; cleanup(): void }>;
  destroy(): Promise<void>;
}

/**
 * pdf.js creates a DOMMatrix while its module loads (for canvas rendering). Node has none, and
 * pdf.js borrows one from the optional native @napi-rs/canvas, which the .vsix does not ship:
 * text extraction never renders. This inert matrix (identity values, no methods) lets the module
 * load; the rendering code that would call its methods is never reached by the local service.
 */
function provideDomMatrix(): void {
  const scope = globalThis as { DOMMatrix?: unknown };
  if (scope.DOMMatrix !== undefined) return;
  scope.DOMMatrix = class TextOnlyDomMatrix {
    readonly a = 1;
    readonly b = 0;
    readonly c = 0;
    readonly d = 1;
    readonly e = 0;
    readonly f = 0;
  };
}

/**
 * pdf.js ships as ESM only and stays outside the bundle (esbuild.mjs marks it external): it loads
 * its worker module from next to itself. The literal specifier is what packaging reads to ship
 * it, and esbuild keeps this a real `import()`, which loads ESM from the CommonJS bundle.
 */
async function loadPdfJs(): Promise<PdfJs> {
  provideDomMatrix();
  try {
    return (await import('pdfjs-dist/legacy/build/pdf.mjs')) as unknown as PdfJs;
  } catch {
    throw new IngestError('PDF support (pdfjs-dist) is missing from this installation; reinstall the extension, or save the PDF as .txt');
  }
}

function textOfItems(items: unknown[]): string {
  let out = '';
  for (const item of items) {
    if (typeof item !== 'object' || item === null) continue;
    const str = (item as { str?: unknown }).str;
    if (typeof str === 'string') out += str;
    out += (item as { hasEOL?: unknown }).hasEOL === true ? '\n' : typeof str === 'string' && str !== '' ? ' ' : '';
  }
  return out.replace(/[ \t]+\n/g, '\n').trim();
}

async function pdfText(buf: Buffer, fileName: string, signal: AbortSignal): Promise<string> {
  if (!startsWith(buf, PDF)) throw new IngestError(`${fileName} is not a PDF document${describe(buf)}`);
  const pdfjs = await loadPdfJs();
  let doc: PdfDocument;
  try {
    doc = await pdfjs.getDocument({
      data: new Uint8Array(buf), isEvalSupported: false, disableFontFace: true, verbosity: 0, useSystemFonts: false,
    }).promise;
  } catch (err) {
    const m = err instanceof Error ? `${err.name} ${err.message}` : String(err);
    if (/password/i.test(m)) throw new IngestError(`${fileName} is password-protected; remove the password and upload it again`);
    throw new IngestError(`could not read ${fileName}: the PDF is damaged (${m.slice(0, 120)})`);
  }
  try {
    const pages: string[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      signal.throwIfAborted();
      const page = await doc.getPage(n);
      pages.push(textOfItems((await page.getTextContent()).items));
      page.cleanup();
    }
    return pages.join(`\n${PAGE_BREAK}`);
  } finally {
    await doc.destroy();
  }
}

function checkZip(buf: Buffer, fileName: string, what: string): void {
  if (!startsWith(buf, ZIP)) throw new IngestError(`${fileName} is not a ${what} file${describe(buf)}; save it as ${what} and upload it again`);
  const zip = summarizeZip(buf);
  if (!zip) throw new IngestError(`could not read ${fileName}: the file is damaged (its ZIP directory is unreadable)`);
  if (zip.uncompressedBytes > MAX_UNCOMPRESSED_BYTES) {
    throw new IngestError(`${fileName} expands to more than ${formatBytes(MAX_UNCOMPRESSED_BYTES)} when unpacked`);
  }
}

async function docxText(buf: Buffer, fileName: string): Promise<string> {
  checkZip(buf, fileName, '.docx');
  try {
    // Loaded on first use, like JSZip below: the service starts faster without them. HTML rather
    // than raw text: it keeps headings and list items, whose numbers are not text runs.
    const { default: mammoth } = await import('mammoth');
    return docxHtmlToText((await mammoth.convertToHtml({ buffer: buf }, { styleMap: DOCX_STYLE_MAP })).value);
  } catch (err) {
    throw new IngestError(`could not read ${fileName}: the document is damaged (${(err instanceof Error ? err.message : String(err)).slice(0, 120)})`);
  }
}

async function pptxText(buf: Buffer, fileName: string): Promise<string> {
  checkZip(buf, fileName, '.pptx');
  let zip: JSZip;
  try {
    const { default: Zip } = await import('jszip');
    zip = await Zip.loadAsync(buf);
  } catch (err) {
    throw new IngestError(`could not read ${fileName}: the presentation is damaged (${(err instanceof Error ? err.message : String(err)).slice(0, 120)})`);
  }
  const slides = Object.keys(zip.files)
    .map((name) => ({ name, n: Number(/^ppt\/slides\/slide(\d+)\.xml$/.exec(name)?.[1] ?? NaN) }))
    .filter((s) => Number.isFinite(s.n))
    .sort((a, b) => a.n - b.n);
  if (slides.length === 0) throw new IngestError(`${fileName} has no slides (is it really a PowerPoint .pptx file?)`);
  const texts: string[] = [];
  for (const s of slides) texts.push(slideText(await (zip.file(s.name)?.async('string') ?? Promise.resolve(''))));
  return texts.join(`\n${PAGE_BREAK}`);
}

function describe(buf: Buffer): string {
  const what = magicKind(buf);
  return what ? `: it looks like ${what}` : '';
}

/** Extracts the text of a document file (exported for tests). */
export async function extractDocumentText(filePath: string, fileName: string, kind: DocumentKind, signal: AbortSignal): Promise<string> {
  const size = (await stat(filePath)).size;
  if (size === 0) throw new IngestError(`${fileName} is empty`);
  if (size > MAX_DOCUMENT_BYTES) {
    throw new IngestError(`${fileName} is too large for a document source (${formatBytes(size)}, limit ${formatBytes(MAX_DOCUMENT_BYTES)})`);
  }
  const buf = await readFile(filePath);
  signal.throwIfAborted();
  const raw = kind === 'pdf' ? await pdfText(buf, fileName, signal) : kind === 'docx' ? await docxText(buf, fileName) : await pptxText(buf, fileName);
  // NUL cannot be stored in a VARCHAR; runs of blank lines carry no meaning for retrieval.
  const text = raw.replace(/\u0000/g, '').replace(/\n{3,}/g, '\n\n').slice(0, MAX_TEXT_CHARS);
  if (text.replace(/\f/g, '').trim().length === 0) {
    throw new IngestError(kind === 'pdf'
      ? `${fileName} contains no extractable text (is it a scanned image? run OCR on it first)`
      : `${fileName} contains no text`);
  }
  return text;
}

/** Ingests a PDF, DOCX or PPTX as a text document, replacing what the source had. */
export async function ingestDocument(args: DocumentArgs): Promise<IngestResult> {
  const text = await extractDocumentText(args.filePath, args.fileName, args.kind, args.signal);
  return replaceSource(args.conn, args.sourceId, args.signal, async () => ({ kind: 'text', text }));
}
