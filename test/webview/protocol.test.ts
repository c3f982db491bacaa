/**
 * The panel protocol in plain Node: every message type has a validator that accepts the valid
 * shape and rejects garbled ones, and streaming patches rebuild exactly the folded answer.
 */
import { strict as assert } from 'node:assert';
import { AnswerBuilder } from '../../src/shared/answerFold';
import { AnswerPatcher, PatchConflictError, applyAnswerPatch } from '../../src/shared/answerPatch';
import type { Answer, Block, JobEvent } from '../../src/shared/domain';
import {
  PROTOCOL_LIMITS, PROTOCOL_VERSION, fileKeyOf, type HostToWebview, type HostToWebviewType, type WebviewToHost, type WebviewToHostType,
} from '../../src/shared/protocol';
import { isHostToWebview, isWebviewToHost } from '../../src/shared/protocolGuards';
import { answerOf, sampleAnswer, uiState } from './builders';

const answer = sampleAnswer('job-1');
const turn = { id: 't1', question: 'How many?', answer };

const hostSamples: { [K in HostToWebviewType]: Extract<HostToWebview, { type: K }> } = {
  init: {
    type: 'init',
    protocolVersion: PROTOCOL_VERSION,
    state: {
      title: 'Sales', turns: [turn], settings: { collapseStepsWhenDone: true, wrapCode: false }, theme: 'dark',
      busy: false, resourceRoots: ['https://file+.vscode-resource.vscode-cdn.net/cache/'],
    },
  },
  conversation: { type: 'conversation', title: 'Sales', sessionId: 's1', turns: [turn, { ...turn, id: 't2', fromHistory: true }] },
  turn: { type: 'turn', turn },
  answerPatch: {
    type: 'answerPatch', turnId: 't1',
    patch: { state: 'done', groups: [{ index: 0, status: 'done', appends: [{ block: 0, text: 'more' }] }] },
  },
  tableData: { type: 'tableData', turnId: 't1', fileKey: 'TABLE:http://x/a.csv', data: { status: 'ready', csv: 'a,b\n1,2\n' } },
  imageData: { type: 'imageData', turnId: 't1', fileKey: 'IMAGE:http://x/a.png', data: { status: 'expired' } },
  title: { type: 'title', title: 'Revenue by region' },
  settings: { type: 'settings', settings: { collapseStepsWhenDone: false, wrapCode: true } },
  theme: { type: 'theme', theme: 'highContrast' },
  scrollTo: { type: 'scrollTo', jobId: 'job-1' },
  busy: { type: 'busy', busy: true, label: 'Creating a session…' },
  notice: { type: 'notice', notice: { level: 'error', message: 'Session limit reached' } },
  focusInput: { type: 'focusInput' },
  dataScope: { type: 'dataScope', data: { dataset: 'ws', files: ['sales.csv', 'targets.xlsx'], allFiles: false } },
};

const source = { source: 'sales.csv', datasourceId: 'd1', datasetId: 'k1', fileType: 'csv', externalId: '' };
const webviewSamples: { [K in WebviewToHostType]: Extract<WebviewToHost, { type: K }> } = {
  ready: { type: 'ready', protocolVersion: PROTOCOL_VERSION },
  ask: { type: 'ask', question: 'Top regions?' },
  askFollowUp: { type: 'askFollowUp', question: 'And by month?', fromTurnId: 't1' },
  cancel: { type: 'cancel', turnId: 't1' },
  retry: { type: 'retry', turnId: 't1' },
  openLink: { type: 'openLink', url: 'https://example.com/docs?a=1' },
  openCode: { type: 'openCode', code: 'SELECT 1', language: 'sql', turnId: 't1' },
  insertCode: { type: 'insertCode', code: 'print(1)', language: 'python' },
  copyText: { type: 'copyText', text: 'hello' },
  openTableAsCsv: { type: 'openTableAsCsv', turnId: 't1', fileKey: 'TABLE:http://x/a.csv' },
  saveTable: { type: 'saveTable', turnId: 't1', fileKey: 'TABLE:http://x/a.csv' },
  exploreTable: { type: 'exploreTable', turnId: 't1', fileKey: 'TABLE:http://x/a.csv' },
  copyTable: { type: 'copyTable', turnId: 't1', fileKey: 'TABLE:http://x/a.csv', tsv: 'a\tb\n1\t2' },
  saveImage: { type: 'saveImage', turnId: 't1', fileKey: 'IMAGE:http://x/a.png' },
  revealSource: { type: 'revealSource', source },
  uiState: { type: 'uiState', state: uiState() },
  chooseData: { type: 'chooseData' },
  webviewError: { type: 'webviewError', message: 'boom' },
};

/** Returns copies of `msg` with one field broken in several ways. */
function garble(msg: Record<string, unknown>): unknown[] {
  const out: unknown[] = [null, undefined, 42, 'ready', [msg], { ...msg, type: 'nope' }, { ...msg, type: undefined }];
  for (const key of Object.keys(msg)) {
    if (key === 'type') continue;
    const value = msg[key];
    out.push({ ...msg, [key]: undefined }, { ...msg, [key]: null }, { ...msg, [key]: [value] });
    out.push({ ...msg, [key]: typeof value === 'string' ? 7 : 'x' });
  }
  return out;
}

describe('panel protocol validators', () => {
  for (const [type, msg] of Object.entries(hostSamples)) {
    it(`host -> webview "${type}": accepts the valid shape, rejects garbled copies`, () => {
      assert.ok(isHostToWebview(msg), 'valid message rejected');
      assert.ok(!isWebviewToHost(msg), 'a host message must not pass as a webview message');
      for (const bad of garble(msg as unknown as Record<string, unknown>)) {
        // Optional fields may legitimately be removed; everything else must be rejected.
        if (bad && typeof bad === 'object' && isHostToWebview(bad)) {
          const removed = Object.keys(msg).find((k) => (bad as unknown as Record<string, unknown>)[k] === undefined);
          assert.ok(removed && ['label', 'notice', 'sessionId'].includes(removed), `accepted ${JSON.stringify(bad).slice(0, 200)}`);
        } else assert.ok(!isHostToWebview(bad));
      }
    });
  }

  for (const [type, msg] of Object.entries(webviewSamples)) {
    it(`webview -> host "${type}": accepts the valid shape, rejects garbled copies`, () => {
      assert.ok(isWebviewToHost(msg), 'valid message rejected');
      for (const bad of garble(msg as unknown as Record<string, unknown>)) {
        if (bad && typeof bad === 'object' && isWebviewToHost(bad)) {
          const removed = Object.keys(msg).find((k) => (bad as unknown as Record<string, unknown>)[k] === undefined);
          assert.ok(removed === 'resync', `accepted ${JSON.stringify(bad).slice(0, 200)}`);
        } else assert.ok(!isWebviewToHost(bad));
      }
    });
  }

  it('rejects links that are not http(s), and empty or oversized questions', () => {
    for (const url of ['javascript:alert(1)', 'data:text/html,<script>1</script>', 'file:///etc/passwd', 'vscode://x', ' https://a', 'https://a b', '']) {
      assert.ok(!isWebviewToHost({ type: 'openLink', url }), url);
    }
    for (const question of ['', '   \n ', 'x'.repeat(6001)]) assert.ok(!isWebviewToHost({ type: 'ask', question }));
    assert.ok(isWebviewToHost({ type: 'ask', question: 'x'.repeat(6000) }));
  });

  it('rejects nested garbage: bad blocks, stages, states and file data', () => {
    const withBlock = (b: unknown): unknown => ({
      type: 'turn', turn: { ...turn, answer: { ...answer, groups: [{ id: 'g', name: 'n', stage: 'Respond', blocks: [b] }] } },
    });
    assert.ok(isHostToWebview(withBlock({ type: 'MESSAGE', content: 'x', groupId: 'g', stage: 'Respond' })));
    assert.ok(!isHostToWebview(withBlock({ type: 'MESSAGE', content: 5, groupId: 'g', stage: 'Respond' })));
    assert.ok(!isHostToWebview(withBlock({ type: 'SCRIPT', content: 'x', groupId: 'g', stage: 'Respond' })));
    assert.ok(!isHostToWebview(withBlock({ type: 'TABLE', content: 'http://bare', groupId: 'g', stage: 'Respond' })));
    assert.ok(!isHostToWebview(withBlock({ type: 'QUESTIONS', content: [1], groupId: 'g', stage: 'Respond' })));
    assert.ok(!isHostToWebview(withBlock({ type: 'CODE', content: 'x', groupId: 'g', stage: 'Later' })));
    assert.ok(!isHostToWebview({ type: 'answerPatch', turnId: 't1', patch: { state: 'exploded' } }));
    assert.ok(!isHostToWebview({ type: 'answerPatch', turnId: 't 1', patch: {} }));
    assert.ok(!isHostToWebview({ type: 'answerPatch', turnId: 't1', patch: { groups: [{ index: -1 }] } }));
    assert.ok(!isHostToWebview({ type: 'tableData', turnId: 't1', fileKey: 'x', data: { status: 'ready', csv: '' } }));
    assert.ok(!isHostToWebview({ type: 'tableData', turnId: 't1', fileKey: 'TABLE:x', data: { status: 'ready' } }));
    assert.ok(!isHostToWebview({ type: 'imageData', turnId: 't1', fileKey: 'IMAGE:x', data: { status: 'ready', uri: 3 } }));
    assert.ok(isHostToWebview({ type: 'imageData', turnId: 't1', fileKey: 'IMAGE:x', data: { status: 'ready', uri: 'u', svg: '<svg></svg>' } }));
    assert.ok(!isHostToWebview({ type: 'imageData', turnId: 't1', fileKey: 'IMAGE:x', data: { status: 'ready', uri: 'u', svg: 'x'.repeat(PROTOCOL_LIMITS.svg + 1) } }));
    assert.ok(!isHostToWebview({ type: 'init', protocolVersion: 0, state: hostSamples.init.state }));
    assert.ok(!isWebviewToHost({ type: 'openCode', code: 'x', language: 'py"><script>', turnId: 't1' }));
    assert.ok(!isWebviewToHost({ type: 'openCode', code: 'x', language: 'sql' }), 'names its turn');
    assert.ok(!isWebviewToHost({ type: 'uiState', state: { ...uiState(), v: 2 } }));
  });

  it('keys files by type and URL without the presigned query', () => {
    const a = fileKeyOf({ type: 'TABLE', content: { url: 'https://s3/x/a.csv?X-Amz-Signature=1' } });
    const b = fileKeyOf({ type: 'TABLE', content: { url: 'https://s3/x/a.csv?X-Amz-Signature=2' } });
    assert.equal(a, b);
    assert.equal(a, 'TABLE:https://s3/x/a.csv');
  });
});

/** A deterministic pseudo-random stream: steps with tasks, code, tables, then a long message. */
function randomEvents(seed: number, fragments: number): JobEvent[] {
  let s = seed;
  const rand = (n: number): number => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s % n;
  };
  const events: JobEvent[] = [{ kind: 'JOB_ID', jobId: `job-${seed}` }, { kind: 'TITLE_GENERATION', title: 'T' }];
  for (let step = 0; step < 4; step++) {
    const place = { groupId: `g${step}`, groupName: `Step ${step}`, stage: 'Analyze' as const };
    events.push({ kind: 'TASK', place, task: { id: `g${step}`, name: `Step ${step}`, status: 'running', stage: 'Analyze' } });
    events.push({ kind: 'BLOCK', block: { type: 'CODE', content: '```sql\nSELECT 1\n```', ...place } });
    if (rand(2)) events.push({ kind: 'BLOCK', block: { type: 'TABLE', content: { url: `http://h/t${step}.csv`, name: 't.csv' }, ...place } });
    events.push({ kind: 'TASK', place, task: { id: `g${step}`, name: `Step ${step}`, status: rand(5) ? 'done' : 'error', stage: 'Analyze' } });
  }
  const respond = { groupId: 'r', groupName: 'Conclusions', stage: 'Respond' as const };
  for (let i = 0; i < fragments; i++) {
    events.push({ kind: 'BLOCK', block: { type: 'MESSAGE', content: `w${i}${rand(7) === 0 ? '\n\n' : ' '}`, ...respond } });
    if (rand(500) === 0) events.push({ kind: 'BLOCK', block: { type: 'IMAGE', content: { url: `http://h/i${i}.png`, name: 'i.png' }, ...respond } });
  }
  events.push({ kind: 'BLOCK', block: { type: 'QUESTIONS', content: ['a?', 'b?'], groupId: '-1', stage: 'Respond' } });
  events.push({ kind: 'TRIGGER', place: respond, name: 'chart', arguments: { x: 1 } });
  events.push({ kind: 'END', ok: true });
  return events;
}

describe('answer patches', () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    it(`rebuild the folded answer exactly when diffed at random frames (seed ${seed})`, () => {
      const events = randomEvents(seed, 3000);
      const builder = new AnswerBuilder();
      const patcher = new AnswerPatcher(builder.snapshot());
      const mirror: Answer = builder.snapshot();
      let appended = 0;
      let next = 0;
      let s = seed;
      while (next < events.length) {
        s = (s * 48271) % 2147483647;
        const burst = 1 + (s % 40);
        for (let i = 0; i < burst && next < events.length; i++) builder.push(events[next++] as JobEvent);
        const patch = patcher.diff(builder.snapshot());
        assert.notEqual(patch, 'resend');
        if (patch && patch !== 'resend') {
          for (const g of patch.groups ?? []) for (const a of g.appends ?? []) appended += a.text.length;
          applyAnswerPatch(mirror, JSON.parse(JSON.stringify(patch)));
        }
      }
      const final = builder.snapshot();
      assert.deepEqual(mirror, final);
      assert.equal(patcher.diff(final), undefined, 'a second diff of the same answer is empty');
      const messageLength = final.groups.flatMap((g) => g.blocks).reduce((n, b) => n + (b.type === 'MESSAGE' ? b.content.length : 0), 0);
      assert.ok(appended <= messageLength, 'text is sent at most once');
    });
  }

  it('says resend when the answer is not a continuation, and conflicting patches change nothing', () => {
    const a = answerOf([{ type: 'MESSAGE', content: 'hello', groupId: 'r', groupName: 'C', stage: 'Respond' }]);
    const patcher = new AnswerPatcher(a);
    assert.equal(patcher.diff(answerOf([])), 'resend');
    const shorter = answerOf([{ type: 'MESSAGE', content: 'he', groupId: 'r', groupName: 'C', stage: 'Respond' }]);
    assert.equal(new AnswerPatcher(a).diff(shorter), 'resend');

    const target = answerOf([{ type: 'CODE', content: 'x', groupId: 'r', groupName: 'C', stage: 'Respond' }]);
    const before = JSON.stringify(target);
    assert.throws(() => applyAnswerPatch(target, { state: 'done', groups: [{ index: 0, appends: [{ block: 0, text: 'y' }] }] }), PatchConflictError);
    assert.throws(() => applyAnswerPatch(target, { groups: [{ index: 2, id: 'g', name: 'n', stage: 'Respond' }] }), PatchConflictError);
    assert.throws(() => applyAnswerPatch(target, { groups: [{ index: 1, name: 'n' }] }), PatchConflictError);
    assert.equal(JSON.stringify(target), before);
  });

  it('coalesces 10k fragments arriving within one frame into one append', () => {
    const builder = new AnswerBuilder();
    const place = { groupId: 'r', groupName: 'C', stage: 'Respond' as const };
    builder.push({ kind: 'BLOCK', block: { type: 'MESSAGE', content: 'start ', ...place } as Block });
    const patcher = new AnswerPatcher(builder.snapshot());
    let expected = '';
    for (let i = 0; i < 10_000; i++) {
      const f = `f${i} `;
      expected += f;
      builder.push({ kind: 'BLOCK', block: { type: 'MESSAGE', content: f, ...place } });
    }
    const patch = patcher.diff(builder.snapshot());
    assert.ok(patch && patch !== 'resend');
    assert.deepEqual(patch.groups, [{ index: 0, appends: [{ block: 0, text: expected }] }]);
  });
});
