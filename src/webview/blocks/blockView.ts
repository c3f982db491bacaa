/**
 * What every block renderer implements, and what it may use from the panel. One renderer per
 * block type; the turn view owns them and forwards only the updates that concern each one.
 */
import type { ImageData, TableData } from '../../shared/protocol';
import type { HostChannel } from '../hostChannel';
import type { UiStateStore } from '../uiState';

export interface BlockView {
  readonly el: HTMLElement;
  /** MESSAGE: text streamed onto the block. */
  append?(text: string): void;
  /** The answer stopped streaming (done, error or cancelled). */
  finish?(): void;
  /** TABLE/IMAGE: the file key the host's tableData/imageData messages use. */
  readonly fileKey?: string;
  setTable?(data: TableData): void;
  setImage?(data: ImageData): void;
  /** Follow-up chips and similar controls that must not be used while an answer runs. */
  setBusy?(busy: boolean): void;
}

export interface BlockContext {
  readonly turnId: string;
  readonly host: HostChannel;
  readonly ui: UiStateStore;
  /** `PanelInit.resourceRoots`: the only URI prefixes an image may be shown from. */
  resourceRoots(): readonly string[];
  isBusy(): boolean;
  /** Shows an image enlarged in the panel's overlay; `svg`, an inline chart, is scaled to the view. */
  enlargeImage(src: string, alt: string, opener: HTMLElement, svg?: SVGSVGElement): void;
}
