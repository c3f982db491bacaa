/** Session titles generated from a first question (the official client names sessions the same way). */
import { MAX_TITLE_LENGTH } from '../../shared/domain';

const TITLE_TARGET = 60;

export const DEFAULT_SESSION_TITLE = 'New session';

/** A short one-line title: whitespace collapsed, cut at a word boundary near 60 characters. */
export function titleFromQuestion(question: string): string {
  const chars = Array.from(question.replace(/\s+/g, ' ').trim());
  if (chars.length <= TITLE_TARGET) return chars.join('') || DEFAULT_SESSION_TITLE;
  const head = chars.slice(0, TITLE_TARGET).join('');
  const space = head.lastIndexOf(' ');
  const cut = space >= TITLE_TARGET / 2 ? head.slice(0, space) : head;
  return `${cut}…`.slice(0, MAX_TITLE_LENGTH);
}
