/**
 * Choosing the language model that helps answer questions (issue 26), and the endpoint's key:
 * `teamData.chooseModel` (a VS Code model, an OpenAI-compatible endpoint, or off),
 * `teamData.setModelEndpointKey` and `teamData.clearModelEndpointKey`. The key goes to
 * SecretStorage only. Each returns the model status it ends with, for the extension-host tests.
 */
import { readLocalModelSettings, updateSetting } from '../config';
import { checkEndpointUrl, endpointIdentity, endpointKeyName, vscodeIdentity, type ModelStatus } from '../model/modelChoice';
import { availableChatModels } from '../model/vscodeModel';
import type { Services } from '../services';
import type { PickItem } from '../ui/prompts';

type Choice = { kind: 'vscode'; id: string; name: string; vendor: string } | { kind: 'endpoint' } | { kind: 'off' };

export async function chooseModel(s: Services): Promise<ModelStatus> {
  const now = readLocalModelSettings();
  const models = await availableChatModels();
  const items: Array<PickItem<Choice>> = models.map((m) => ({
    label: `$(sparkle) ${m.name}`,
    description: [m.vendor, m.family].filter((x) => x).join(' · '),
    ...(now.mode === 'vscode' && now.vscodeModel === m.id ? { detail: 'in use' } : {}),
    value: { kind: 'vscode', id: m.id, name: m.name, vendor: m.vendor },
  }));
  items.push({ label: '$(server) OpenAI-compatible endpoint…', description: now.endpointUrl || 'Ollama, llama.cpp server, vLLM', ...(now.mode === 'endpoint' ? { detail: 'in use' } : {}), value: { kind: 'endpoint' } });
  items.push({ label: '$(circle-slash) Off (built-in engine only)', ...(now.mode === 'off' ? { detail: 'in use' } : {}), value: { kind: 'off' } });
  const active = items.findIndex((i) => i.detail === 'in use');
  const choice = await s.prompts.pick(items, {
    title: 'Which language model helps answer questions?',
    placeHolder: models.length === 0 ? 'No VS Code language model is available (install Copilot or another provider), or use an endpoint' : 'The engine checks every plan the model proposes',
    ...(active >= 0 ? { activeIndex: active } : {}),
  });
  if (!choice) return s.model.status;
  if (choice.kind === 'off') {
    await s.model.batch(() => updateSetting('localModel', 'off'));
    return s.model.apply({ mayAsk: false });
  }
  if (choice.kind === 'vscode') {
    s.model.askAgain(vscodeIdentity(choice));
    await s.model.batch(async () => {
      await updateSetting('localModelId', choice.id);
      await updateSetting('localModel', 'vscode');
    });
    return s.model.apply({ mayAsk: true });
  }
  const url = await s.prompts.input({
    title: 'OpenAI-compatible endpoint (1/2)',
    prompt: 'Base URL, up to /chat/completions (Ollama: http://127.0.0.1:11434/v1). A key is set separately, never in the URL.',
    value: now.endpointUrl || 'http://127.0.0.1:11434/v1',
    validate: (v) => {
      const c = checkEndpointUrl(v);
      return c.ok ? undefined : c.why;
    },
  });
  if (url === undefined) return s.model.status;
  const model = await s.prompts.input({
    title: 'OpenAI-compatible endpoint (2/2)',
    prompt: 'The model\'s name at the endpoint',
    value: now.endpointModel,
    placeHolder: 'llama3',
    validate: (v) => (v.trim() === '' ? 'the model\'s name, e.g. llama3' : undefined),
  });
  if (model === undefined) return s.model.status;
  const id = endpointIdentity({ endpointUrl: url, endpointModel: model });
  if ('id' in id) s.model.askAgain(id);
  await s.model.batch(async () => {
    await updateSetting('localModelEndpointUrl', url.trim());
    await updateSetting('localModelEndpointModel', model.trim());
    await updateSetting('localModel', 'endpoint');
  });
  return s.model.apply({ mayAsk: true });
}

export async function setModelEndpointKey(s: Services): Promise<ModelStatus> {
  const url = checkEndpointUrl(readLocalModelSettings().endpointUrl);
  if (!url.ok) throw new Error(`${url.why}; choose the endpoint first (Team Data: Choose Language Model…)`);
  const key = await s.prompts.input({
    title: `Key for the model endpoint ${url.host}`,
    prompt: 'Kept in the OS keychain (VS Code SecretStorage) and sent to the endpoint as a bearer token; never shown again.',
    password: true,
    validate: (v) => (v.trim() === '' ? 'the key' : /[\r\n]/.test(v) ? 'a single line' : undefined),
  });
  if (key === undefined) return s.model.status;
  await s.context.secrets.store(endpointKeyName(url.url), key.trim());
  return s.model.apply({ mayAsk: false });
}

export async function clearModelEndpointKey(s: Services): Promise<ModelStatus> {
  const url = readLocalModelSettings().endpointUrl;
  if (url !== '') await s.context.secrets.delete(endpointKeyName(url));
  return s.model.apply({ mayAsk: false });
}
