/**
 * Builders for typed panel fixtures: answers, turns and host messages, so tests state only what
 * they care about.
 */
import type { Answer, AnswerGroup, Block, SourceRef } from '../../src/shared/domain';
import type { AnswerPatch, HostToWebview, PanelInit, PersistedUiState, Turn } from '../../src/shared/protocol';
import { PROTOCOL_VERSION } from '../../src/shared/protocol';

/** Groups blocks the way the fold does: consecutive blocks with the same stage and id share a group. */
export function answerOf(blocks: Block[], extra: Partial<Answer> = {}): Answer {
  const groups: AnswerGroup[] = [];
  for (const b of blocks) {
    let g = groups.find((x) => x.id === b.groupId && x.stage === b.stage);
    if (!g) {
      g = { id: b.groupId, name: b.groupName ?? '', stage: b.stage, blocks: [] };
      groups.push(g);
    }
    g.blocks.push(b);
  }
  return { jobId: 'job', state: 'done', groups, triggers: [], ...extra };
}

export const respond = { groupId: 'r1', groupName: 'Conclusions', stage: 'Respond' as const };

export function step(n: number, status: AnswerGroup['status'] = 'done'): AnswerGroup {
  return {
    id: `a${n}`, name: `Step ${n}: load the data`, stage: 'Analyze', status,
    blocks: [{ type: 'CODE', content: '```sql\nSELECT region, SUM(revenue) FROM sales GROUP BY 1\n```', groupId: `a${n}`, groupName: `Step ${n}`, stage: 'Analyze' }],
  };
}

export const sampleSource: SourceRef = { source: 'sales.csv', datasourceId: 'ds1', datasetId: 'k1', fileType: 'csv', externalId: '' };

/** An answer with every block type, two analyze steps and sources/questions. */
export function sampleAnswer(jobId: string, state: Answer['state'] = 'done'): Answer {
  const a = answerOf([
    { type: 'MESSAGE', content: '## Revenue by region\n\nEurope leads with **42%**. See [the docs](https://example.com/docs).\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```python\nprint("hi")\n```\n', ...respond },
    { type: 'CODE', content: '```sql\nSELECT region, SUM(revenue) AS total\nFROM sales\nGROUP BY region\nORDER BY total DESC;\n```', ...respond },
    { type: 'TABLE', content: { url: 'https://files.example/t/result.csv?sig=1', name: 'result.csv', expiredAt: '2030-01-01T00:00:00Z' }, ...respond },
    { type: 'IMAGE', content: { url: 'https://files.example/i/chart.png?sig=1', name: 'revenue chart.png', expiredAt: '2030-01-01T00:00:00Z' }, ...respond },
    { type: 'SOURCES', content: [sampleSource, { ...sampleSource, source: 'regions.xlsx', fileType: 'xlsx', datasourceId: 'ds2' }], groupId: '', stage: 'Respond' },
    { type: 'QUESTIONS', content: ['Which month was best?', 'Show revenue by channel'], groupId: '-1', stage: 'Respond' },
  ], { jobId, state, title: 'Revenue by region' });
  a.groups.unshift(step(1), step(2));
  return a;
}

export function turnOf(id: string, question: string, answer: Answer): Turn {
  return { id, question, answer };
}

export function initMessage(turns: Turn[], over: Partial<PanelInit> = {}): HostToWebview {
  return {
    type: 'init',
    protocolVersion: PROTOCOL_VERSION,
    state: {
      title: 'Sales analysis', sessionId: 'sess-1', turns, settings: { collapseStepsWhenDone: true, wrapCode: false },
      theme: 'dark', busy: false, resourceRoots: [], ...over,
    },
  };
}

export function patchMessage(turnId: string, patch: AnswerPatch): HostToWebview {
  return { type: 'answerPatch', turnId, patch };
}

export function uiState(over: Partial<PersistedUiState> = {}): PersistedUiState {
  return { v: 1, draft: '', scrollTop: 0, collapsed: {}, tableSort: {}, ...over };
}

/** A streaming turn with one empty Respond group holding a MESSAGE block to append to. */
export function streamingTurn(id: string, first = ''): Turn {
  return turnOf(id, 'Stream please', {
    jobId: `job-${id}`, state: 'streaming', triggers: [],
    groups: [{ id: 'r1', name: 'Conclusions', stage: 'Respond', blocks: [{ type: 'MESSAGE', content: first, ...respond }] }],
  });
}

/** Deterministic CSV with `rows` data rows: id, a name, a number column with mixed widths, a date. */
export function generatedCsv(rows: number): string {
  const out: string[] = ['id,name,amount,when'];
  let s = 7;
  for (let i = 0; i < rows; i++) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    out.push(`${i},name ${s % 997},${((s % 200000) - 100000) / 100},2024-${String(1 + (s % 12)).padStart(2, '0')}-01`);
  }
  return out.join('\n') + '\n';
}
