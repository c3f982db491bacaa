/**
 * The answer panel's message protocol: one discriminated union per direction, shared by the
 * extension host (`src/extension/`) and the webview bundle (`src/webview/`).
 *
 * Handshake: the webview posts {@link ReadyMessage} once its listener is installed; the host
 * answers with {@link InitMessage} (the whole panel state) and only then posts anything else. A
 * webview that loses sync (a patch that does not apply) posts `ready` again with `resync: true`
 * and the host answers with a fresh `init`. Both sides check every incoming message with the
 * validators in `protocolGuards.ts` and drop what does not match, because a message may come
 * from a stale bundle (restored after an update) or be garbled.
 *
 * Streaming: the host folds events with `AnswerBuilder`, and once per animation frame (~16 ms)
 * posts one {@link AnswerPatchMessage} built by `AnswerPatcher` (`answerPatch.ts`): only new
 * groups, new blocks, status changes and the text appended to growing MESSAGE blocks, so a
 * 1 MB answer never crosses the channel more than once.
 *
 * Files: TABLE and IMAGE blocks are never loaded from the service by the webview. The host
 * downloads them before `expiredAt` into its storage and posts {@link TableDataMessage} (the CSV
 * text, which clones as one string and is parsed once in the webview: cheaper than 100k small
 * row arrays) or {@link ImageDataMessage} (a `webview.asWebviewUri` of the cached file).
 */
import type { Answer, AnswerState, Block, SourceRef, Stage, TaskStatus } from './domain';

/** Bumped on any incompatible change; `ready` and `init` carry it so a stale side can reload. */
export const PROTOCOL_VERSION = 1;

/** Upper bounds the validators enforce; generous, but they stop a garbled message early. */
export const PROTOCOL_LIMITS = {
  id: 200,
  title: 1000,
  question: 6000,
  url: 8192,
  language: 64,
  message: 65_536,
  /** Code, copied text and one appended fragment. */
  text: 32 * 1024 * 1024,
  /** CSV text of one table and the TSV the webview builds from it. */
  table: 256 * 1024 * 1024,
  /** An SVG chart's text; larger drawings are shown as an image. */
  svg: 2 * 1024 * 1024,
  items: 100_000,
} as const;

export type ThemeKind = 'light' | 'dark' | 'highContrast' | 'highContrastLight';

/** One question and its answer. `id` is the host's turn id; the job id lives in `answer.jobId`. */
export interface Turn {
  id: string;
  question: string;
  answer: Answer;
  /** Loaded from session history rather than asked in this panel. */
  fromHistory?: boolean;
  /** Asked from a follow-up chip of an earlier turn: that turn and its question (shown above this one). */
  refines?: { turnId: string; question: string };
}

export interface PanelSettings {
  /** Collapse the Analyze steps when an answer finishes (the default: true). */
  collapseStepsWhenDone: boolean;
  /** Wrap long lines in CODE blocks instead of scrolling horizontally. */
  wrapCode: boolean;
}

export const DEFAULT_PANEL_SETTINGS: PanelSettings = { collapseStepsWhenDone: true, wrapCode: false };

/** A panel-level notice (not tied to a turn), e.g. "session limit reached". */
export interface Notice {
  level: 'error' | 'info';
  message: string;
}

/**
 * The data the panel's next question will use, as the data selector shows it: the dataset's
 * name and the chosen files' names (`allFiles`: every ready file of the dataset). No dataset means
 * no data is selected yet.
 */
export interface DataScopeView {
  dataset?: string;
  files: string[];
  allFiles: boolean;
}

/** Everything the webview needs to render from scratch. */
export interface PanelInit {
  title: string;
  sessionId?: string;
  turns: Turn[];
  settings: PanelSettings;
  theme: ThemeKind;
  /** True while the host is busy before a turn exists (creating a session, uploading). */
  busy: boolean;
  busyLabel?: string;
  /**
   * `webview.asWebviewUri` of every folder images may come from (the extension's cache). An image
   * URI outside these is not shown, so a host bug can never make the webview load a remote file.
   */
  resourceRoots: string[];
  /** Scroll to this job after rendering (opening a past job from the Sessions tree). */
  scrollToJobId?: string;
  notice?: Notice;
  /** The data selector's content; absent until the host has looked the names up. */
  data?: DataScopeView;
}

// ---- Streaming patch -------------------------------------------------------------------------

/** Changes to one group, addressed by its position in `answer.groups` (groups only grow). */
export interface GroupPatch {
  index: number;
  /** Required when `index === groups.length` (a new group); ignored otherwise. */
  id?: string;
  name?: string;
  stage?: Stage;
  status?: TaskStatus;
  errors?: number;
  /** Text appended to existing MESSAGE blocks of this group. Applied before `blocks`. */
  appends?: Array<{ block: number; text: string }>;
  /** Whole blocks appended to the group, in order. */
  blocks?: Block[];
}

/** What changed in one turn's answer since the last patch. Every field is optional. */
export interface AnswerPatch {
  jobId?: string;
  title?: string;
  state?: AnswerState;
  error?: { message: string; code?: number };
  groups?: GroupPatch[];
  /** Triggers appended since the last patch. */
  triggers?: Answer['triggers'];
}

// ---- Files ------------------------------------------------------------------------------------

export type TableData =
  | { status: 'loading' }
  /** `csv` is the whole file (header row first). `truncated`: the host sent only a prefix. */
  | { status: 'ready'; csv: string; truncated?: boolean; fromCache?: boolean }
  /** The link expired before it was downloaded and there is no cached copy. */
  | { status: 'expired' }
  | { status: 'error'; message: string };

export type ImageData =
  | { status: 'loading' }
  /**
   * `uri` is a webview URI of the cached copy, under one of `PanelInit.resourceRoots`. `svg`: the
   * file's text when it is an SVG drawing (a chart), which the panel sanitizes and shows inline so
   * it takes the theme's colours and scales when enlarged.
   */
  | { status: 'ready'; uri: string; fromCache?: boolean; svg?: string }
  | { status: 'expired' }
  | { status: 'error'; message: string };

export { fileKeyOf } from './answerFold';

// ---- Host -> webview --------------------------------------------------------------------------

export interface InitMessage { type: 'init'; protocolVersion: number; state: PanelInit }
/** Replaces the whole conversation (a session's history was loaded). */
export interface ConversationMessage { type: 'conversation'; title: string; sessionId?: string; turns: Turn[] }
/** Adds a turn, or replaces the turn with the same id (a retry that reuses the turn). */
export interface TurnMessage { type: 'turn'; turn: Turn }
export interface AnswerPatchMessage { type: 'answerPatch'; turnId: string; patch: AnswerPatch }
export interface TableDataMessage { type: 'tableData'; turnId: string; fileKey: string; data: TableData }
export interface ImageDataMessage { type: 'imageData'; turnId: string; fileKey: string; data: ImageData }
/** TITLE_GENERATION or a rename. */
export interface TitleMessage { type: 'title'; title: string }
export interface SettingsMessage { type: 'settings'; settings: PanelSettings }
export interface ThemeMessage { type: 'theme'; theme: ThemeKind }
export interface ScrollToMessage { type: 'scrollTo'; jobId: string }
export interface BusyMessage { type: 'busy'; busy: boolean; label?: string }
/** Shows (or with `notice` absent, clears) the panel-level notice. */
export interface NoticeMessage { type: 'notice'; notice?: Notice }
export interface FocusInputMessage { type: 'focusInput' }
/** The data the next question uses changed (or its names were looked up). */
export interface DataScopeMessage { type: 'dataScope'; data: DataScopeView }

export type HostToWebview =
  | InitMessage
  | ConversationMessage
  | TurnMessage
  | AnswerPatchMessage
  | TableDataMessage
  | ImageDataMessage
  | TitleMessage
  | SettingsMessage
  | ThemeMessage
  | ScrollToMessage
  | BusyMessage
  | NoticeMessage
  | FocusInputMessage
  | DataScopeMessage;

// ---- Webview -> host --------------------------------------------------------------------------

/** UI state the webview keeps with `setState` and mirrors to the host (panel serializer). */
export interface PersistedUiState {
  v: 1;
  sessionId?: string;
  /** Unsent text in the input box. */
  draft: string;
  scrollTop: number;
  /** Open/closed state the user chose, keyed `${turnId}:steps` or `${turnId}:step:${groupIndex}`. */
  collapsed: Record<string, boolean>;
  /** Sort of each table, keyed `${turnId}|${fileKey}`. */
  tableSort: Record<string, { column: number; descending: boolean }>;
}

export interface ReadyMessage { type: 'ready'; protocolVersion: number; resync?: boolean }
export interface AskMessage { type: 'ask'; question: string }
/** A suggested question chip was clicked. */
export interface AskFollowUpMessage { type: 'askFollowUp'; question: string; fromTurnId: string }
export interface CancelMessage { type: 'cancel'; turnId: string }
export interface RetryMessage { type: 'retry'; turnId: string }
/** A link in an answer; the host opens it externally after its own http/https check. */
export interface OpenLinkMessage { type: 'openLink'; url: string }
/** `turnId`: the turn whose answer holds the code (its question names the editor tab). */
export interface OpenCodeMessage { type: 'openCode'; code: string; language: string; turnId: string }
export interface InsertCodeMessage { type: 'insertCode'; code: string; language: string }
export interface CopyTextMessage { type: 'copyText'; text: string }
export interface OpenTableAsCsvMessage { type: 'openTableAsCsv'; turnId: string; fileKey: string }
export interface SaveTableMessage { type: 'saveTable'; turnId: string; fileKey: string }
/** Opens the table in the Team Data Explorer (the host's cached CSV, read by the local service). */
export interface ExploreTableMessage { type: 'exploreTable'; turnId: string; fileKey: string }
/** The webview builds the TSV (with headers, in the grid's current sort order). */
export interface CopyTableMessage { type: 'copyTable'; turnId: string; fileKey: string; tsv: string }
export interface SaveImageMessage { type: 'saveImage'; turnId: string; fileKey: string }
export interface RevealSourceMessage { type: 'revealSource'; source: SourceRef }
export interface UiStateMessage { type: 'uiState'; state: PersistedUiState }
/** The data selector's button: the host asks which dataset and files the next questions use. */
export interface ChooseDataMessage { type: 'chooseData' }
/** An exception inside the webview, for the host's log (never shown as-is to users). */
export interface WebviewErrorMessage { type: 'webviewError'; message: string }

export type WebviewToHost =
  | ReadyMessage
  | AskMessage
  | AskFollowUpMessage
  | CancelMessage
  | RetryMessage
  | OpenLinkMessage
  | OpenCodeMessage
  | InsertCodeMessage
  | CopyTextMessage
  | OpenTableAsCsvMessage
  | SaveTableMessage
  | ExploreTableMessage
  | CopyTableMessage
  | SaveImageMessage
  | RevealSourceMessage
  | UiStateMessage
  | ChooseDataMessage
  | WebviewErrorMessage;

export type HostToWebviewType = HostToWebview['type'];
export type WebviewToHostType = WebviewToHost['type'];
