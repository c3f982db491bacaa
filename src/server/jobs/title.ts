/** Session titles generated from a first question (the official client names sessions the same way). */
import { MAX_TITLE_LENGTH } from '../../shared/domain';
import { cutAtWord } from '../../shared/titleText';

const TITLE_TARGET = 60;

export const DEFAULT_SESSION_TITLE = 'New session';

/** A short one-line title: whitespace collapsed, cut at a word boundary near 60 characters. */
export function titleFromQuestion(question: string): string {
  return cutAtWord(question, Math.min(TITLE_TARGET, MAX_TITLE_LENGTH)) || DEFAULT_SESSION_TITLE;
}
