import type { ReactNode } from 'react';

/** Where "Skip to …" lands: the settlements grid, or the row that is a shared table's one tab stop. */
const TABLE_STOP = '[role="grid"][tabindex="0"], table.dt tbody tr[tabindex="0"]';

/**
 * Every screen's title row: the title, how fresh its data is, then the screen's actions on the right. One
 * component, so every screen's actions sit in the same place and in the same tab order.
 *
 * `skipTo` names the screen's main list: a "Skip to …" button, first in the screen's tab order and shown only
 * while focused, puts focus on that list, so from the sidebar the list is two key presses away (Tab, Enter)
 * rather than one press per filter.
 */
export function PageHeader({
  title,
  asOf,
  skipTo,
  children,
}: {
  title: string;
  asOf?: ReactNode;
  skipTo?: string;
  children?: ReactNode;
}) {
  return (
    <header className="screen-head">
      {skipTo && (
        <button
          type="button"
          className="skip-link"
          onClick={(e) => {
            const screen = e.currentTarget.closest('.content') ?? document;
            screen.querySelector<HTMLElement>(TABLE_STOP)?.focus();
          }}
        >
          Skip to {skipTo}
        </button>
      )}
      <h1 className="screen-title">{title}</h1>
      {asOf}
      {children && <div className="screen-actions">{children}</div>}
    </header>
  );
}
