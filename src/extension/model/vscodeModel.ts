/**
 * The VS Code side of the model bridge (modelBridge.ts): finds the chosen language model and sends
 * it the service's messages. Cancelling the bridge request (the service dropped it) cancels the
 * model request; the text is collected up to the bridge's cap, then the request is stopped.
 */
import * as vscode from 'vscode';
import { forLmApi, MAX_OUTPUT_CHARS, type BridgeSend } from './modelBridge';

const JUSTIFICATION = 'Team Data Analysis asks the model to read a question about your data: it sends the question, the session\'s recent questions, the data\'s schema, sample values and glossary words, and result rows only for SQL the model wrote.';

/** The VS Code language model with this id, if one is installed and available now. */
export async function findChatModel(id: string): Promise<vscode.LanguageModelChat | undefined> {
  if (id === '') return undefined;
  try {
    const [model] = await vscode.lm.selectChatModels({ id });
    return model;
  } catch {
    return undefined;
  }
}

/** Every VS Code language model available now (none when no provider is installed). */
export async function availableChatModels(): Promise<vscode.LanguageModelChat[]> {
  try {
    return await vscode.lm.selectChatModels();
  } catch {
    return [];
  }
}

/** A `send` for the bridge that asks the VS Code model `modelId()` names at each request. */
export function vscodeModelSend(modelId: () => string): BridgeSend {
  return async (messages, signal) => {
    const id = modelId();
    const model = await findChatModel(id);
    if (!model) throw new Error(`the VS Code language model ${id || '(none chosen)'} is not available`);
    const lm = forLmApi(messages).map((m) => (m.role === 'user' ? vscode.LanguageModelChatMessage.User(m.content) : vscode.LanguageModelChatMessage.Assistant(m.content)));
    const cts = new vscode.CancellationTokenSource();
    const cancel = (): void => cts.cancel();
    if (signal.aborted) cts.cancel();
    signal.addEventListener('abort', cancel);
    // VS Code 1.100 passes the token to the provider only when the request starts: a cancel after
    // that never reaches it, and its stream stays open. So a cancel also stops our reading at once.
    let onAbort: (() => void) | undefined;
    const stopped = new Promise<never>((_resolve, reject) => {
      onAbort = () => reject(new Error('the request was cancelled'));
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      const read = (async (): Promise<string> => {
        const response = await model.sendRequest(lm, { justification: JUSTIFICATION }, cts.token);
        let out = '';
        for await (const part of response.text) {
          if (signal.aborted) break;
          out += part;
          if (out.length > MAX_OUTPUT_CHARS) {
            // Enough: the bridge passes no more on, so the model need not go on writing.
            cts.cancel();
            break;
          }
        }
        return out;
      })();
      read.catch(() => undefined);
      stopped.catch(() => undefined);
      return await Promise.race([read, stopped]);
    } catch (e) {
      if (e instanceof vscode.LanguageModelError) throw new Error(`${e.code || 'LanguageModelError'}: ${e.message}`);
      throw e;
    } finally {
      if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
      signal.removeEventListener('abort', cancel);
      cts.dispose();
    }
  };
}
