import type { KeyboardEvent } from 'react';
import { rowKeyTarget } from '../ui/use-roving-rows';
import { SCREEN_GROUPS, type Screen } from './screens';

const ALL = SCREEN_GROUPS.flatMap((g) => g.screens);

/**
 * The grouped sections; each entry shows its shortcut, so the keyboard is learnt by looking. The list is one tab
 * stop (the open screen's entry; ↑/↓, Home and End move between entries, Enter opens one), so Tab from the
 * sidebar goes straight into the screen instead of through every other section first.
 */
export function Sidebar({ current, onOpen }: { current: Screen | null; onOpen(screen: Screen): void }) {
  const stop = current?.id ?? ALL[0]?.id;
  function onKeyDown(event: KeyboardEvent<HTMLElement>) {
    const buttons = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('button.nav-item')];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (at < 0) return;
    const to = rowKeyTarget(event.key, at, buttons.length);
    if (to === null) return;
    event.preventDefault();
    buttons[to]?.focus();
  }
  return (
    <nav className="sidebar" aria-label="Sections" onKeyDown={onKeyDown}>
      <div className="brand">Payout Console</div>
      {SCREEN_GROUPS.map((group) => (
        <section key={group.label} className="nav-group" aria-label={group.label}>
          <h2 className="nav-group-title">{group.label}</h2>
          <ul>
            {group.screens.map((screen) => (
              <li key={screen.id}>
                <button
                  type="button"
                  className="nav-item"
                  aria-current={current?.id === screen.id ? 'page' : undefined}
                  tabIndex={screen.id === stop ? 0 : -1}
                  aria-keyshortcuts={`g ${screen.key}`}
                  onClick={() => onOpen(screen)}
                >
                  <span>{screen.label}</span>
                  <kbd className="nav-key" aria-hidden="true">
                    g {screen.key}
                  </kbd>
                </button>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </nav>
  );
}
