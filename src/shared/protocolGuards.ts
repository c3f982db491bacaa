/**
 * Runtime validators for every panel message in both directions (see `protocol.ts`). The host
 * runs {@link isWebviewToHost} on what the webview posts and the webview runs
 * {@link isHostToWebview} on what it receives; anything else is dropped. The guards are typed as
 * `Guard<DeclaredType>`, so a protocol change that the guards do not follow fails to compile.
 */
import type { Answer, AnswerGroup, AnswerState, Block, FileRef, SourceRef, Stage, TaskStatus } from './domain';
import {
  anyObject, arrayOf, bool, finite, int, literal, oneOf, recordOf, shape, str, tagged, type Guard,
} from './guardKit';
import {
  PROTOCOL_LIMITS as L, type AnswerPatch, type GroupPatch, type HostToWebview, type ImageData, type Notice,
  type DataScopeView, type PanelInit, type PanelSettings, type PersistedUiState, type TableData, type ThemeKind, type Turn,
  type WebviewToHost,
} from './protocol';

const id = str(L.id, /^\S+$/);
/** Job ids may be empty until JOB_ID arrives. */
const jobId = str(L.id);
const name = str(L.title);
const text = str(L.text);
const count = int(0, L.items);
const language = str(L.language, /^[\w+#.-]*$/);
const fileKey = str(L.url + 16, /^(TABLE|IMAGE):/);

export const isStage: Guard<Stage> = literal('Analyze', 'Respond');
export const isTaskStatus: Guard<TaskStatus> = literal('running', 'done', 'error');
export const isAnswerState: Guard<AnswerState> = literal('streaming', 'done', 'error', 'cancelled');
export const isThemeKind: Guard<ThemeKind> = literal('light', 'dark', 'highContrast', 'highContrastLight');

export const isFileRef: Guard<FileRef> = shape({ url: str(L.url), name }, { expiredAt: str(100) });

export const isSourceRef: Guard<SourceRef> = shape(
  { source: name, datasourceId: jobId, datasetId: jobId, fileType: name, externalId: str(L.url) },
  { id: jobId, pageNo: finite(), content: text },
);

const place = { groupId: jobId, stage: isStage };
const placeOpt = { groupName: name };
export const isBlock: Guard<Block> = oneOf(
  shape({ type: literal('MESSAGE'), content: text, ...place }, placeOpt),
  shape({ type: literal('CODE'), content: text, ...place }, placeOpt),
  shape({ type: literal('TABLE'), content: isFileRef, ...place }, placeOpt),
  shape({ type: literal('IMAGE'), content: isFileRef, ...place }, placeOpt),
  shape({ type: literal('SOURCES'), content: arrayOf(isSourceRef, L.items), ...place }, placeOpt),
  shape({ type: literal('QUESTIONS'), content: arrayOf(str(L.question * 4), 1000), ...place }, placeOpt),
);

const isError = shape({ message: str(L.message) }, { code: finite() });
const isTrigger = shape({ name, arguments: anyObject });

export const isAnswerGroup: Guard<AnswerGroup> = shape(
  { id: jobId, name, stage: isStage, blocks: arrayOf(isBlock, L.items) },
  { status: isTaskStatus, errors: count },
);

export const isAnswer: Guard<Answer> = shape(
  { jobId, state: isAnswerState, groups: arrayOf(isAnswerGroup, L.items), triggers: arrayOf(isTrigger, L.items) },
  { title: name, error: isError },
);

export const isTurn: Guard<Turn> = shape({ id, question: text, answer: isAnswer }, { fromHistory: bool, refines: shape({ turnId: id, question: text }) });

export const isPanelSettings: Guard<PanelSettings> = shape({ collapseStepsWhenDone: bool, wrapCode: bool });
export const isNotice: Guard<Notice> = shape({ level: literal('error', 'info'), message: str(L.message) });

export const isDataScopeView: Guard<DataScopeView> = shape({ files: arrayOf(name, 1000), allFiles: bool }, { dataset: name });

export const isPanelInit: Guard<PanelInit> = shape(
  {
    title: name,
    turns: arrayOf(isTurn, L.items),
    settings: isPanelSettings,
    theme: isThemeKind,
    busy: bool,
    resourceRoots: arrayOf(str(L.url), 16),
  },
  { sessionId: jobId, busyLabel: name, scrollToJobId: jobId, notice: isNotice, data: isDataScopeView },
);

export const isGroupPatch: Guard<GroupPatch> = shape(
  { index: count },
  {
    id: jobId,
    name,
    stage: isStage,
    status: isTaskStatus,
    errors: count,
    appends: arrayOf(shape({ block: count, text }), L.items),
    blocks: arrayOf(isBlock, L.items),
  },
);

export const isAnswerPatch: Guard<AnswerPatch> = shape(
  {},
  {
    jobId,
    title: name,
    state: isAnswerState,
    error: isError,
    groups: arrayOf(isGroupPatch, L.items),
    triggers: arrayOf(isTrigger, L.items),
  },
);

const failed = { status: literal('expired') };
const errored = { status: literal('error'), message: str(L.message) };
const loading = { status: literal('loading') };

export const isTableData: Guard<TableData> = oneOf(
  shape(loading),
  shape({ status: literal('ready'), csv: str(L.table) }, { truncated: bool, fromCache: bool }),
  shape(failed),
  shape(errored),
);

export const isImageData: Guard<ImageData> = oneOf(
  shape(loading),
  shape({ status: literal('ready'), uri: str(L.url) }, { fromCache: bool, svg: str(L.svg) }),
  shape(failed),
  shape(errored),
);

export const isPersistedUiState: Guard<PersistedUiState> = shape(
  {
    v: literal(1),
    draft: str(L.question * 4),
    scrollTop: int(0, Number.MAX_SAFE_INTEGER),
    collapsed: recordOf(bool, L.items),
    tableSort: recordOf(shape({ column: count, descending: bool }), L.items, L.url * 2),
  },
  { sessionId: jobId },
);

const version = int(1, 1_000_000);

export const isHostToWebview: Guard<HostToWebview> = tagged<HostToWebview, 'type'>('type', {
  init: shape({ type: literal('init'), protocolVersion: version, state: isPanelInit }),
  conversation: shape({ type: literal('conversation'), title: name, turns: arrayOf(isTurn, L.items) }, { sessionId: jobId }),
  turn: shape({ type: literal('turn'), turn: isTurn }),
  answerPatch: shape({ type: literal('answerPatch'), turnId: id, patch: isAnswerPatch }),
  tableData: shape({ type: literal('tableData'), turnId: id, fileKey, data: isTableData }),
  imageData: shape({ type: literal('imageData'), turnId: id, fileKey, data: isImageData }),
  title: shape({ type: literal('title'), title: name }),
  settings: shape({ type: literal('settings'), settings: isPanelSettings }),
  theme: shape({ type: literal('theme'), theme: isThemeKind }),
  scrollTo: shape({ type: literal('scrollTo'), jobId: id }),
  busy: shape({ type: literal('busy'), busy: bool }, { label: name }),
  notice: shape({ type: literal('notice') }, { notice: isNotice }),
  focusInput: shape({ type: literal('focusInput') }),
  dataScope: shape({ type: literal('dataScope'), data: isDataScopeView }),
});

/** Only http(s) links leave the webview; the host checks again before opening. */
const httpUrl = str(L.url, /^https?:\/\/[^\s]+$/i);
const question = str(L.question, /\S/);

export const isWebviewToHost: Guard<WebviewToHost> = tagged<WebviewToHost, 'type'>('type', {
  ready: shape({ type: literal('ready'), protocolVersion: version }, { resync: bool }),
  ask: shape({ type: literal('ask'), question }),
  askFollowUp: shape({ type: literal('askFollowUp'), question, fromTurnId: id }),
  cancel: shape({ type: literal('cancel'), turnId: id }),
  retry: shape({ type: literal('retry'), turnId: id }),
  openLink: shape({ type: literal('openLink'), url: httpUrl }),
  openCode: shape({ type: literal('openCode'), code: text, language, turnId: id }),
  insertCode: shape({ type: literal('insertCode'), code: text, language }),
  copyText: shape({ type: literal('copyText'), text }),
  openTableAsCsv: shape({ type: literal('openTableAsCsv'), turnId: id, fileKey }),
  saveTable: shape({ type: literal('saveTable'), turnId: id, fileKey }),
  exploreTable: shape({ type: literal('exploreTable'), turnId: id, fileKey }),
  copyTable: shape({ type: literal('copyTable'), turnId: id, fileKey, tsv: str(L.table) }),
  saveImage: shape({ type: literal('saveImage'), turnId: id, fileKey }),
  revealSource: shape({ type: literal('revealSource'), source: isSourceRef }),
  uiState: shape({ type: literal('uiState'), state: isPersistedUiState }),
  chooseData: shape({ type: literal('chooseData') }),
  webviewError: shape({ type: literal('webviewError'), message: str(L.message) }),
});
