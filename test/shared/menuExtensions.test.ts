/**
 * The Explorer and editor menus offer "Analyze This File" by a regular expression in package.json;
 * the extension accepts files by SUPPORTED_EXTENSIONS. The two must agree, or a menu entry leads to
 * "Skipped ..." (or a file type the service reads has no menu entry, as .csv.gz had while the
 * menus matched only the last extension).
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SUPPORTED_EXTENSIONS } from '../../src/shared/domain';
import { EXPLORE_FILE_PATTERN, fileExtension } from '../../src/shared/fileNames';

interface Manifest {
  contributes: {
    menus: Record<string, Array<{ command: string; when?: string }>>;
    customEditors: Array<{ viewType: string; selector: Array<{ filenamePattern: string }> }>;
  };
}

const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as Manifest;

describe('file menus match the extensions the extension accepts', () => {
  const entries = Object.values(manifest.contributes.menus).flat()
    .filter((m) => m.command === 'teamData.analyzeFile' || m.command === 'teamData.addToDataset')
    .filter((m) => m.when?.includes('resourceScheme == file'));

  it('every file menu entry matches exactly the supported file names', () => {
    assert.ok(entries.length >= 4, `only ${entries.length} entries`);
    const accepted = (name: string): boolean => (SUPPORTED_EXTENSIONS as readonly string[]).includes(fileExtension(name));
    const names = [
      ...SUPPORTED_EXTENSIONS.flatMap((e) => [`data${e}`, `Data${e.toUpperCase()}`, `v1.2${e}`]),
      'data.gz', 'data.xls.gz', 'data.docx.gz', 'data.csvx', 'data.csv.bak', 'data.exe', '.csv', '.csv.gz', 'csv', 'data.tar.gz',
    ];
    for (const e of entries) {
      const m = /resourceFilename =~ \/(.+)\/(\w*)/.exec(e.when ?? '');
      assert.ok(m?.[1], `${e.command}: ${e.when ?? ''} does not match by resourceFilename`);
      const re = new RegExp(m[1], m[2]);
      for (const n of names) assert.equal(re.test(n), accepted(n), `${n}: menu ${re.test(n)}, extension ${accepted(n)}`);
    }
  });

  it('the Team Data Explorer\'s menus and custom editor offer exactly the files it opens', () => {
    const names = [
      ...['csv', 'tsv', 'parquet', 'jsonl', 'ndjson', 'xlsx'].flatMap((e) => [`data.${e}`, `data.${e}.gz`, `DATA.${e.toUpperCase()}.GZ`]),
      'data.json', 'data.json.gz', 'data.xls', 'data.xls.gz', 'data.gz', 'data.md', 'data.tar.gz', '.csv',
    ];
    const menus = Object.values(manifest.contributes.menus).flat().filter((m) => m.command === 'teamData.openInExplorer');
    assert.ok(menus.length >= 2, `only ${menus.length} entries`);
    for (const e of menus) {
      const m = /resourceFilename =~ \/(.+)\/(\w*)/.exec(e.when ?? '');
      assert.ok(m?.[1], `${e.when ?? ''} does not match by resourceFilename`);
      const re = new RegExp(m[1], m[2]);
      for (const n of names) assert.equal(re.test(n), EXPLORE_FILE_PATTERN.test(n), `${n}: menu ${re.test(n)}, explorer ${EXPLORE_FILE_PATTERN.test(n)}`);
    }
    const editor = manifest.contributes.customEditors.find((c) => c.viewType === 'teamData.explorer');
    // VS Code's `*.x.gz` glob; the editor's patterns are matched case-insensitively on most systems.
    const globs = (editor?.selector ?? []).map((sel) => new RegExp(`^${sel.filenamePattern.replace(/\./g, '\\.').replace('*', '.+')}$`, 'i'));
    for (const n of names) assert.equal(globs.some((g) => g.test(n)), EXPLORE_FILE_PATTERN.test(n), `${n}: custom editor`);
  });
});
