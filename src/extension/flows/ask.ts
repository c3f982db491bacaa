/**
 * "Ask a Question…": session, dataset and data sources from quick picks (remembering the last
 * choice), then the question, answered in the session's panel. Tree actions pass presets so
 * "Ask About This Dataset" skips the dataset pick, and so on.
 */
import { cutAtWord } from '../../shared/titleText';
import type { Answer, DataSource, Dataset } from '../../shared/domain';
import type { Services } from '../services';
import { askQuestionInput } from './analyze';
import { lastChoice, pickDataSources, pickDataset, pickSession, rememberChoice } from './pickers';
import { createSession } from './sessionHelpers';

export interface AskPreset {
  sessionId?: string;
  dataset?: Dataset;
  /** With `dataset`: ask about exactly these sources (no pick). */
  dataSources?: DataSource[];
  /** The question (no input box), e.g. a follow-up chip. */
  question?: string;
}

export interface AskResult {
  sessionId: string;
  answer: Answer;
}

export async function askFlow(s: Services, preset: AskPreset = {}): Promise<AskResult | undefined> {
  const client = await s.connection.client();
  const last = lastChoice(s);

  let sessionId = preset.sessionId;
  let newSession = false;
  if (!sessionId) {
    const choice = await pickSession(s, client, { title: 'Ask in which session?', ...(last.sessionId ? { preferredId: last.sessionId } : {}) });
    if (!choice) return undefined;
    if (choice.kind === 'existing') sessionId = choice.session.id;
    else newSession = true;
  }

  let dataset = preset.dataset;
  let sources = preset.dataSources;
  if (!dataset) {
    const choice = await pickDataset(s, client, { title: 'Ask about which dataset?', allowNone: true, allowCreate: false, ...(last.datasetId ? { preferredId: last.datasetId } : {}) });
    if (!choice) return undefined;
    if (choice.kind === 'existing') dataset = choice.dataset;
  }
  if (dataset && !sources) {
    sources = await pickDataSources(s, client, dataset, dataset.id === last.datasetId ? last.dataSourceIds : undefined);
    if (!sources) return undefined;
  }

  const question = preset.question ?? (await askQuestionInput(s, '', dataset ? `Ask about “${dataset.name}”` : 'Ask a question'));
  if (question === undefined || question.trim() === '') return undefined;
  if (newSession) {
    sessionId = await createSession(s, client, cutAtWord(question, 40));
    s.sessions.refresh();
  }
  if (!sessionId) return undefined;
  const ids = sources?.map((d) => d.id);
  await rememberChoice(s, { sessionId, ...(dataset ? { datasetId: dataset.id } : {}), ...(ids ? { dataSourceIds: ids } : {}) });
  const answer = await s.panels.ask(sessionId, question.trim(), { ...(dataset ? { datasetId: dataset.id } : {}), ...(ids ? { datasourceIdList: ids } : {}) });
  return { sessionId, answer };
}
