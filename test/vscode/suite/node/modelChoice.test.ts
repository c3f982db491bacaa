/**
 * The language model choice and its consent (extension/model/modelChoice.ts), in plain Node: the
 * consent decision, a consent per mode and model (switching asks again), the consent text listing
 * what leaves the machine and to whom, labels, endpoint checks, the status bar's words, and the
 * mapping of chat roles onto the VS Code LM API (which has no system role).
 */
import { strict as assert } from 'node:assert';
import { forLmApi } from '../../../../src/extension/model/modelBridge';
import {
  checkEndpointUrl, consentDecision, endpointKeyName, consentKey, consentPrompt, endpointIdentity, modelStatusText, timeoutMs, vscodeIdentity, type ModelIdentity,
} from '../../../../src/extension/model/modelChoice';

describe('language model choice and consent', () => {
  it('uses a model accepted before, asks only when it may, and does not nag after a no', () => {
    assert.equal(consentDecision({ accepted: true, declinedInThisWindow: false, mayAsk: false }), 'use');
    assert.equal(consentDecision({ accepted: true, declinedInThisWindow: true, mayAsk: true }), 'use');
    assert.equal(consentDecision({ accepted: false, declinedInThisWindow: false, mayAsk: true }), 'ask');
    assert.equal(consentDecision({ accepted: false, declinedInThisWindow: false, mayAsk: false }), 'pending', 'never a modal at startup');
    assert.equal(consentDecision({ accepted: false, declinedInThisWindow: true, mayAsk: true }), 'declined');
  });

  it('keys consent by mode and model: another model, another endpoint or another mode asks again', () => {
    const gpt = vscodeIdentity({ id: 'copilot-gpt-4o', name: 'GPT-4o', vendor: 'copilot' });
    const claude = vscodeIdentity({ id: 'copilot-claude', name: 'Claude', vendor: 'copilot' });
    const llama = endpointIdentity({ endpointUrl: 'http://127.0.0.1:11434/v1/', endpointModel: 'llama3' }) as ModelIdentity;
    const llamaElsewhere = endpointIdentity({ endpointUrl: 'http://10.0.0.5:11434/v1', endpointModel: 'llama3' }) as ModelIdentity;
    const mistral = endpointIdentity({ endpointUrl: 'http://127.0.0.1:11434/v1', endpointModel: 'mistral' }) as ModelIdentity;
    const keys = [gpt, claude, llama, llamaElsewhere, mistral].map(consentKey);
    assert.equal(new Set(keys).size, keys.length, keys.join('\n'));
    assert.equal(consentKey(llama), consentKey(endpointIdentity({ endpointUrl: 'http://127.0.0.1:11434/v1', endpointModel: ' llama3 ' }) as ModelIdentity), 'a trailing slash or spaces are the same model');
    assert.notEqual(consentKey({ mode: 'vscode', id: 'x' }), consentKey({ mode: 'endpoint', id: 'x' }));
  });

  it('the consent lists exactly what leaves the machine, and to whom', () => {
    const gpt = vscodeIdentity({ id: 'copilot-gpt-4o', name: 'GPT-4o', vendor: 'copilot' });
    const p = consentPrompt(gpt);
    for (const what of ['the question', 'last 5 questions', 'schema', 'column names, types', 'sample values', 'glossary', 'result rows']) assert.ok(p.detail.includes(what), what);
    assert.ok(p.detail.includes('GPT-4o (Copilot, via VS Code)'), 'names the model');
    assert.ok(p.message.includes('GPT-4o (Copilot, via VS Code)'));
    const llama = endpointIdentity({ endpointUrl: 'http://127.0.0.1:11434/v1', endpointModel: 'llama3' }) as ModelIdentity;
    assert.ok(consentPrompt(llama).detail.includes('llama3 at 127.0.0.1:11434'));
  });

  it('labels models as the status bar shows them and refuses unusable endpoints', () => {
    assert.equal(vscodeIdentity({ id: 'a', name: 'GPT-4o', vendor: 'copilot' }).label, 'GPT-4o (Copilot, via VS Code)');
    assert.equal((endpointIdentity({ endpointUrl: 'http://127.0.0.1:11434/v1', endpointModel: 'llama3' }) as ModelIdentity).label, 'llama3 at 127.0.0.1:11434');
    assert.match((endpointIdentity({ endpointUrl: '', endpointModel: 'llama3' }) as { why: string }).why, /localModelEndpointUrl/);
    assert.match((endpointIdentity({ endpointUrl: 'http://h/v1', endpointModel: '' }) as { why: string }).why, /localModelEndpointModel/);
    assert.equal(checkEndpointUrl('ftp://h/v1').ok, false);
    const withKey = checkEndpointUrl('http://user:sk-123@h/v1');
    assert.equal(withKey.ok, false);
    assert.ok(!JSON.stringify(withKey).includes('sk-123'), 'the refusal does not repeat the key');
    assert.equal(endpointKeyName('http://127.0.0.1:11434/v1/'), endpointKeyName('HTTP://127.0.0.1:11434/v1'), 'one key per endpoint, however written');
    assert.notEqual(endpointKeyName('http://127.0.0.1:11434/v1'), endpointKeyName('http://10.0.0.5:11434/v1'), 'one server\'s key never goes to another');
    assert.match(endpointKeyName('http://h/v1'), /^teamData\.localModel\.endpointKey:/);
    assert.equal(timeoutMs(60), 60_000);
    assert.equal(timeoutMs(0), 5_000);
    assert.equal(timeoutMs(99_999), 600_000);
  });

  it('the status bar names the model, says why it is off, and hides when off', () => {
    assert.equal(modelStatusText({ kind: 'off' }).visible, false);
    const on = modelStatusText({ kind: 'active', label: 'GPT-4o (Copilot, via VS Code)' });
    assert.equal(on.text, '$(sparkle) GPT-4o (Copilot, via VS Code)');
    assert.match(on.tooltip, /plans/);
    assert.match(on.tooltip, /checked/);
    const declined = modelStatusText({ kind: 'noConsent', label: 'llama3 at h', asked: true });
    assert.match(declined.text, /off/);
    assert.match(declined.tooltip, /consent was not given/);
    const gone = modelStatusText({ kind: 'unavailable', why: 'GPT-4o is not available (no Copilot?)' });
    assert.equal(gone.warning, true);
    assert.match(gone.tooltip, /not available/);
  });

  it('maps chat roles onto the LM API: system text goes before the next user message', () => {
    assert.deepEqual(forLmApi([{ role: 'system', content: 'S' }, { role: 'user', content: 'U' }, { role: 'assistant', content: 'A' }, { role: 'user', content: 'U2' }]), [
      { role: 'user', content: 'S\n\nU' }, { role: 'assistant', content: 'A' }, { role: 'user', content: 'U2' },
    ]);
    assert.deepEqual(forLmApi([{ role: 'system', content: 'S' }]), [{ role: 'user', content: 'S' }], 'a lone system text is still sent');
    assert.deepEqual(forLmApi([{ role: 'system', content: 'S' }, { role: 'assistant', content: 'A' }]), [{ role: 'user', content: 'S' }, { role: 'assistant', content: 'A' }]);
  });
});
