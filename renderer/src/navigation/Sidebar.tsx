import { SCREEN_GROUPS, type Screen } from './screens';

/** The grouped sections; each entry shows its shortcut, so the keyboard is learnt by looking. */
export function Sidebar({ current, onOpen }: { current: Screen | null; onOpen(screen: Screen): void }) {
  return (
    <nav className="sidebar" aria-label="Sections">
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
