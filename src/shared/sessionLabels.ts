/**
 * A session's settings in words people use. The service's codes ("AUTO · AUTO", "ZH-CN ·
 * DATA_ANALYTICS") meant nothing to a new user and showed on every session; defaults now show
 * nothing, and any other choice is named ("German · data analysis").
 */
import type { JobMode, LanguageType } from './domain';

const LANGUAGE_NAMES: Record<LanguageType, string> = {
  AUTO: 'the language of the question', EN: 'English', ES: 'Spanish', AR: 'Arabic', PT: 'Portuguese', ID: 'Indonesian',
  JA: 'Japanese', RU: 'Russian', HI: 'Hindi', FR: 'French', DE: 'German', VI: 'Vietnamese', TR: 'Turkish', PL: 'Polish',
  IT: 'Italian', KO: 'Korean', 'ZH-CN': 'Chinese (Simplified)', 'ZH-TW': 'Chinese (Traditional)',
};

const MODE_NAMES: Record<JobMode, string> = { AUTO: 'automatic', DATA_ANALYTICS: 'data analysis' };

/** The language answers are written in ("German"; for AUTO "the language of the question"). */
export function languageName(language: LanguageType): string {
  return LANGUAGE_NAMES[language] ?? language;
}

/** How the service answers ("automatic", "data analysis"). */
export function modeName(mode: JobMode): string {
  return MODE_NAMES[mode] ?? mode;
}

/** The short label beside a session: only what differs from the defaults, '' when nothing does. */
export function sessionSettingsLabel(language: LanguageType, mode: JobMode): string {
  return [language !== 'AUTO' ? languageName(language) : '', mode !== 'AUTO' ? modeName(mode) : ''].filter(Boolean).join(' · ');
}

/**
 * What a screen reader says for a session's row: its title, then its settings when they differ
 * from the defaults. Without it VS Code reads "title description", which for the defaults (no
 * description) left a trailing space ("Analyze sales.csv ").
 */
export function sessionRowLabel(title: string, settingsLabel: string): string {
  const t = title.trim();
  const s = settingsLabel.trim();
  return s === '' ? t : `${t}, ${s}`;
}

/** The settings spelled out, for a tooltip. */
export function sessionSettingsText(language: LanguageType, mode: JobMode, contextMessages: number): string {
  return `Answers in ${languageName(language)}, ${modeName(mode)} mode; remembers the last ${contextMessages} messages.`;
}
