import { useState, type FormEvent } from 'react';
import { CLASSIFY_LIMITS } from '../../../shared/api/classification';
import {
  classifyProblems,
  parseState,
  requestBytes,
  type ClassificationResult,
  type StateMode,
} from '../../../shared/classification';
import type { IpcError } from '../../../shared/ipc/contract';
import { resultOf } from '../query/ipc-query';
import { FormField } from '../ui/FormField';
import { OfflineBanner } from '../ui/OfflineBanner';
import { SubmitButton } from '../ui/SubmitButton';
import { PageHeader } from '../ui/PageHeader';
import { ErrorNotice } from '../ui/states';
import { AnswerCard } from './AnswerCard';
import { useClassify } from './classification-queries';
import { questionsOf, type QuestionDraft, type QuestionType } from './question-drafts';
import '../tools/tools.css';
import './classification.css';

const CRITERIA_HINTS: Record<QuestionType, string> = {
  choice: `One label a line (1 to ${CLASSIFY_LIMITS.maxChoiceOptions}), or "label: description"`,
  score: `One level a line, lowest first (${CLASSIFY_LIMITS.minScoreLevels} to ${CLASSIFY_LIMITS.maxScoreLevels})`,
  noul: 'Optional: "false: …" and "true: …" lines',
};

const FIRST: QuestionDraft = {
  key: 'topic',
  type: 'choice',
  instructions: 'What is this message about?',
  criteria: 'refund\npayout\nsettlement',
};

/** Typed questions about a text or JSON state, at the classification service; limits checked before sending. */
export function ClassificationScreen() {
  const [stateText, setStateText] = useState('');
  const [mode, setMode] = useState<StateMode>('text');
  const [drafts, setDrafts] = useState<QuestionDraft[]>([FIRST]);
  const [problems, setProblems] = useState<string[]>([]);
  const [answer, setAnswer] = useState<ClassificationResult | null>(null);
  const [failure, setFailure] = useState<IpcError | null>(null);
  const classify = useClassify();
  const patch = (i: number, p: Partial<QuestionDraft>) =>
    setDrafts((ds) => ds.map((d, j) => (j === i ? { ...d, ...p } : d)));

  async function submit(e: FormEvent) {
    e.preventDefault();
    setFailure(null);
    const state = parseState(stateText, mode);
    if (!state.ok) {
      setProblems([state.message]);
      return;
    }
    const request = { state: state.state, questions: questionsOf(drafts) };
    const found = classifyProblems(request);
    setProblems(found);
    if (found.length > 0) return;
    const r = await resultOf(classify.mutateAsync(request));
    if (r.ok) setAnswer(r.value);
    else setFailure(r.error);
  }

  const bytes = requestBytes({ state: stateText, questions: questionsOf(drafts) });
  return (
    <div className="screen tools-screen">
      <OfflineBanner />
      <PageHeader title="Classification" />
      <form onSubmit={(e) => void submit(e)} noValidate>
        <section className="tools-panel" aria-labelledby="classify-state-title">
          <h2 id="classify-state-title">State</h2>
          <div role="radiogroup" aria-label="Read the state as" className="tools-row">
            {(['text', 'json'] as const).map((m) => (
              <label key={m} className="classify-check">
                <input type="radio" name="classify-mode" checked={mode === m} onChange={() => setMode(m)} />
                {m === 'text' ? 'Text' : 'JSON (an object, or a list of turns)'}
              </label>
            ))}
          </div>
          <FormField
            label="Text or JSON to classify"
            hint={`About ${bytes.toLocaleString('en-IN')} of ${CLASSIFY_LIMITS.maxBodyBytes.toLocaleString('en-IN')} bytes`}
          >
            {(p) => (
              <textarea
                {...p}
                className="input tools-textarea"
                value={stateText}
                onChange={(e) => setStateText(e.target.value)}
              />
            )}
          </FormField>
        </section>
        <section className="tools-panel" aria-labelledby="classify-questions-title">
          <h2 id="classify-questions-title">
            Questions ({drafts.length} of {CLASSIFY_LIMITS.maxQuestions})
          </h2>
          {drafts.map((d, i) => (
            <fieldset key={i} className="classify-question" aria-label={`Question ${i + 1}`}>
              <FormField label="Key">
                {(p) => (
                  <input {...p} className="input" value={d.key} onChange={(e) => patch(i, { key: e.target.value })} />
                )}
              </FormField>
              <FormField label="Type">
                {(p) => (
                  <select
                    {...p}
                    className="input"
                    value={d.type}
                    onChange={(e) => patch(i, { type: e.target.value as QuestionType })}
                  >
                    <option value="choice">choice</option>
                    <option value="score">score</option>
                    <option value="noul">noul (yes or no)</option>
                  </select>
                )}
              </FormField>
              <FormField label="Instructions">
                {(p) => (
                  <input
                    {...p}
                    className="input"
                    value={d.instructions}
                    onChange={(e) => patch(i, { instructions: e.target.value })}
                  />
                )}
              </FormField>
              <FormField label="Criteria" hint={CRITERIA_HINTS[d.type]}>
                {(p) => (
                  <textarea
                    {...p}
                    className="input tools-textarea"
                    value={d.criteria}
                    onChange={(e) => patch(i, { criteria: e.target.value })}
                  />
                )}
              </FormField>
              <button
                type="button"
                className="button"
                disabled={drafts.length === 1}
                onClick={() => setDrafts((ds) => ds.filter((_, j) => j !== i))}
              >
                Remove
              </button>
            </fieldset>
          ))}
          <div className="form-actions">
            <button
              type="button"
              className="button"
              disabled={drafts.length >= CLASSIFY_LIMITS.maxQuestions}
              title={
                drafts.length >= CLASSIFY_LIMITS.maxQuestions
                  ? `At most ${CLASSIFY_LIMITS.maxQuestions} questions a request.`
                  : undefined
              }
              onClick={() =>
                setDrafts((ds) => [...ds, { key: `q${ds.length + 1}`, type: 'noul', instructions: '', criteria: '' }])
              }
            >
              Add a question
            </button>
            <SubmitButton pending={classify.isPending} pendingLabel="Asking…">
              Classify
            </SubmitButton>
          </div>
          {problems.length > 0 && (
            <div className="notice notice-error" role="alert">
              Not sent:
              <ul>
                {problems.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            </div>
          )}
          {failure && <ErrorNotice error={failure} />}
        </section>
      </form>
      {answer && (
        <section aria-labelledby="classify-answers-title">
          <h2 id="classify-answers-title" className="classify-answers-title">
            Answers
          </h2>
          <div className="classify-answers">
            {Object.entries(answer.result.answers).map(([name, a]) => (
              <AnswerCard key={name} name={name} answer={a} />
            ))}
          </div>
          <p className="muted" aria-label="Usage">
            Model {answer.result.model ?? 'not given'} · {answer.result.usage.input_tokens} tokens read,{' '}
            {answer.result.usage.output_tokens} written · request {answer.bytes.toLocaleString('en-IN')} bytes
          </p>
        </section>
      )}
    </div>
  );
}
