/**
 * The "Views" menu a table's screen shows: pick a saved view, save what is on screen under a name (the filters,
 * the sort, the columns and density), choose the view the screen opens with, remove one. Views are the active
 * profile's, kept by main in its settings, so they survive a restart and follow a profile switch.
 */
import { useId, useRef, useState, type FormEvent } from 'react';
import { VIEW_NAME_MAX, sameName, type SavedView } from '../../../shared/saved-views';
import { ipcErrorOf, resultOf } from '../query/ipc-query';
import { currentViewName, stateOf, useSavedViews, type ViewBinding } from './saved-views';
import { ErrorNotice } from './states';

export function SavedViewsMenu({
  table,
  binding,
  views: saved,
}: {
  table: string;
  binding: ViewBinding;
  /** The screen's own `useSavedViews(table, binding)`, so the screen and the menu agree on the view applied. */
  views: ReturnType<typeof useSavedViews>;
}) {
  const id = useId();
  const menu = useRef<HTMLDetailsElement>(null);
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [said, setSaid] = useState<string | null>(null);
  const data = saved.list.data;
  const views = data?.views ?? [];
  const current = currentViewName(table, binding, views, saved.appliedName);
  const changed = saved.appliedName !== null && current === null;
  const failed = saved.list.error ?? saved.save.error ?? saved.remove.error ?? saved.setDefault.error;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return setProblem('Type a name for the view, such as “Month end”.');
    if (trimmed.length > VIEW_NAME_MAX) return setProblem(`A view's name is at most ${VIEW_NAME_MAX} characters.`);
    const view: SavedView = { name: trimmed, state: stateOf(table, binding) };
    const replacing = views.some((v) => sameName(v.name, trimmed));
    const result = await resultOf(saved.save.mutateAsync({ table, view }));
    if (!result.ok) return setProblem(result.error.message);
    saved.apply(view);
    setName('');
    setProblem(null);
    setSaid(replacing ? `Replaced the view “${trimmed}”.` : `Saved the view “${trimmed}”.`);
  }

  function pick(view: SavedView) {
    saved.apply(view);
    setSaid(null);
    if (menu.current) menu.current.open = false;
  }

  return (
    <details className="views" ref={menu} onToggle={() => setSaid(null)}>
      <summary className="button button-quiet" aria-label={`Views: ${current ?? 'none applied'}`}>
        Views{current ? `: ${current}` : changed ? `: ${saved.appliedName} (changed)` : ''}
      </summary>
      <div className="views-menu" role="group" aria-labelledby={`${id}-title`}>
        <p id={`${id}-title`} className="views-title">
          Saved views
        </p>
        {views.length === 0 && <p className="muted views-none">None yet: save what is on screen below.</p>}
        {views.length > 0 && (
          <ul className="views-list">
            {views.map((v) => {
              const isDefault =
                data?.defaultName !== null && data?.defaultName !== undefined && sameName(v.name, data.defaultName);
              return (
                <li key={v.name} className="views-item">
                  <button
                    type="button"
                    className="button button-quiet views-pick"
                    aria-current={current !== null && sameName(v.name, current) ? 'true' : undefined}
                    onClick={() => pick(v)}
                  >
                    {v.name}
                    {isDefault && <span className="muted"> · opens with</span>}
                  </button>
                  <button
                    type="button"
                    className="button button-quiet"
                    aria-label={isDefault ? `Stop opening with “${v.name}”` : `Open this screen with “${v.name}”`}
                    aria-pressed={isDefault}
                    onClick={() => saved.setDefault.mutate({ table, name: isDefault ? null : v.name })}
                  >
                    Default
                  </button>
                  <button
                    type="button"
                    className="button button-quiet"
                    aria-label={`Remove the view “${v.name}”`}
                    onClick={() => {
                      saved.remove.mutate({ table, name: v.name });
                      if (saved.appliedName !== null && sameName(saved.appliedName, v.name)) saved.clearApplied();
                    }}
                  >
                    Remove
                  </button>
                </li>
              );
            })}
          </ul>
        )}
        <form className="views-save" onSubmit={submit} noValidate>
          <label htmlFor={`${id}-name`}>Save what is on screen as</label>
          <div className="views-save-row">
            <input
              id={`${id}-name`}
              className="input"
              value={name}
              maxLength={VIEW_NAME_MAX + 1}
              placeholder="Month end"
              autoComplete="off"
              aria-invalid={problem !== null}
              aria-describedby={problem ? `${id}-problem` : undefined}
              onChange={(e) => {
                setName(e.target.value);
                setProblem(null);
              }}
            />
            <button type="submit" className="button" disabled={saved.save.isPending}>
              Save view
            </button>
          </div>
          {problem && (
            <p id={`${id}-problem`} className="field-error" role="alert">
              {problem}
            </p>
          )}
          {said && (
            <p className="muted" role="status">
              {said}
            </p>
          )}
        </form>
        {failed && !problem && <ErrorNotice error={ipcErrorOf(failed)} />}
      </div>
    </details>
  );
}
