/**
 * What the walkthrough and the sample command tell a new user (issue 24, point 17): the walkthrough
 * said every file is "uploaded" although the local service reads CSV, TSV and Parquet in place, and
 * "Analyze the Sample Sales Data" offered a dataset named after the sample's folder, "samples".
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isShippedSample, SAMPLE_DATASET } from '../../src/shared/analyzeDefaults';
import { IN_PLACE_EXTENSIONS } from '../../src/shared/domain';

const ROOT = join(__dirname, '..', '..');
const analyze = readFileSync(join(ROOT, 'media', 'walkthrough', 'analyze.md'), 'utf8');
const nls = JSON.parse(readFileSync(join(ROOT, 'package.nls.json'), 'utf8')) as Record<string, string>;

/** The walkthrough's sentences (Markdown line breaks joined). */
function sentences(text: string): string[] {
  return text.replace(/\s*\n\s*/g, ' ').split(/(?<=[.!?])\s+/);
}

describe('the walkthrough says how files get to the service', () => {
  it('says the kinds read in place are read where they are', () => {
    assert.ok(IN_PLACE_EXTENSIONS.includes('.parquet') && IN_PLACE_EXTENSIONS.includes('.csv'));
    const said = sentences(analyze).find((s) => /read where they\s+are/.test(s));
    assert.ok(said, 'a sentence says files are read where they are');
    for (const kind of ['CSV', 'TSV', 'Parquet']) assert.match(said, new RegExp(`\\b${kind}\\b`), kind);
  });

  it('never says a file is uploaded without saying which files are', () => {
    const texts = [...sentences(analyze), ...Object.entries(nls).filter(([k]) => k.startsWith('walkthrough.')).flatMap(([, v]) => sentences(v))];
    for (const s of texts.filter((t) => /upload/i.test(t))) {
      assert.match(s, /other files|hosted service|instead of reading or uploading/i, `"${s}" says files are uploaded`);
    }
  });
});

describe('the sample data\'s dataset', () => {
  it('is named for what it is, not after its folder', () => {
    assert.equal(SAMPLE_DATASET.name, 'Sample sales data');
    assert.notEqual(SAMPLE_DATASET.name.toLowerCase(), 'samples');
    assert.match(analyze, new RegExp(`named \\*${SAMPLE_DATASET.name}\\*`));
  });

  it('recognises the samples shipped in the extension, on any platform, and nothing else', () => {
    assert.equal(isShippedSample('/ext/team-data-0.1.0/samples/sales.csv', '/ext/team-data-0.1.0'), true);
    assert.equal(isShippedSample('C:\\ext\\td\\samples\\sales.csv', 'C:\\ext\\td\\'), true);
    assert.equal(isShippedSample('/ext/team-data-0.1.0/samples-other/sales.csv', '/ext/team-data-0.1.0'), false);
    assert.equal(isShippedSample('/home/me/samples/sales.csv', '/ext/team-data-0.1.0'), false);
  });
});
