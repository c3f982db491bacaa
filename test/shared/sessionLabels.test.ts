/**
 * A session's language and mode in words (issue 24, point 15): every session showed "AUTO · auto"
 * and the pickers "AUTO · AUTO".
 */
import { strict as assert } from 'node:assert';
import { JOB_MODES, LANGUAGE_TYPES } from '../../src/shared/domain';
import { sessionRowLabel, sessionSettingsLabel, sessionSettingsText } from '../../src/shared/sessionLabels';

describe('session settings in words', () => {
  it('shows nothing for the defaults', () => {
    assert.equal(sessionSettingsLabel('AUTO', 'AUTO'), '');
  });

  it('names what differs from the defaults', () => {
    assert.equal(sessionSettingsLabel('DE', 'AUTO'), 'German');
    assert.equal(sessionSettingsLabel('AUTO', 'DATA_ANALYTICS'), 'data analysis');
    assert.equal(sessionSettingsLabel('ZH-CN', 'DATA_ANALYTICS'), 'Chinese (Simplified) · data analysis');
  });

  it('never shows a service code, for any language and mode', () => {
    for (const language of LANGUAGE_TYPES) {
      for (const mode of JOB_MODES) {
        for (const text of [sessionSettingsLabel(language, mode), sessionSettingsText(language, mode, 10)]) {
          assert.doesNotMatch(text, /\b(AUTO|DATA_ANALYTICS|[A-Z]{2}(-[A-Z]{2})?)\b/, text);
        }
      }
    }
    assert.equal(sessionSettingsText('AUTO', 'AUTO', 10), 'Answers in the language of the question, automatic mode; remembers the last 10 messages.');
  });

  it('names a session\'s row for a screen reader without a trailing space (issue 24 walk)', () => {
    assert.equal(sessionRowLabel('Analyze sales.csv', sessionSettingsLabel('AUTO', 'AUTO')), 'Analyze sales.csv');
    assert.equal(sessionRowLabel('Analyze sales.csv ', ''), 'Analyze sales.csv');
    assert.equal(sessionRowLabel('Analyze sales.csv', sessionSettingsLabel('DE', 'AUTO')), 'Analyze sales.csv, German');
  });
});
