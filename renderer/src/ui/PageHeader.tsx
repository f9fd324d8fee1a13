import type { ReactNode } from 'react';

/**
 * Every screen's title row: the title, how fresh its data is, then the screen's actions on the right. One
 * component, so every screen's actions sit in the same place and in the same tab order.
 */
export function PageHeader({ title, asOf, children }: { title: string; asOf?: ReactNode; children?: ReactNode }) {
  return (
    <header className="screen-head">
      <h1 className="screen-title">{title}</h1>
      {asOf}
      {children && <div className="screen-actions">{children}</div>}
    </header>
  );
}
