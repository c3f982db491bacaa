/**
 * What the answer panel shows of VS Code and of a session's history: the theme kind, and past
 * jobs as turns (oldest first, each with its steps and, for a job that did not finish, its state).
 */
import * as vscode from 'vscode';
import type { HistoryRecord } from '../../shared/domain';
import type { ThemeKind, Turn } from '../../shared/protocol';
import { questionOf } from '../trees/nodes';
import { answerOfRecord } from './cancelOutcome';
import { historyTurnId } from './followUpLinks';

export function themeKind(kind: vscode.ColorThemeKind): ThemeKind {
  switch (kind) {
    case vscode.ColorThemeKind.Light:
      return 'light';
    case vscode.ColorThemeKind.HighContrast:
      return 'highContrast';
    case vscode.ColorThemeKind.HighContrastLight:
      return 'highContrastLight';
    default:
      return 'dark';
  }
}

/** History records (newest first on the wire) as turns, oldest first. */
export function turnsFromHistory(records: readonly HistoryRecord[]): Turn[] {
  return [...records].reverse().map((r) => ({
    id: historyTurnId(r.jobId),
    question: questionOf(r),
    answer: answerOfRecord(r),
    fromHistory: true,
  }));
}
