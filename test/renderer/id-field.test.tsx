/**
 * The lookup screens' id box: an empty or over-long id is named in a sentence on the field and the box takes the
 * focus; a good one is handed on trimmed; Ctrl+F focuses the box from anywhere on the screen.
 */
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FormEvent } from 'react';
import { describe, expect, it } from 'vitest';
import { IdField, useIdField } from '../../renderer/src/ui/IdField';

function Lookup({ onLookUp }: { onLookUp(id: string): void }) {
  const field = useIdField('an order id');
  function submit(event: FormEvent) {
    event.preventDefault();
    const id = field.take();
    if (id !== undefined) onLookUp(id);
  }
  return (
    <form onSubmit={submit} noValidate>
      <IdField field={field} label="Order id" hint="Fetches the order." placeholder="ord_…" />
      <button type="submit">Look up</button>
    </form>
  );
}

describe('the id field', () => {
  it('names an empty and an over-long id, focuses the box, and hands on a good id trimmed', async () => {
    const user = userEvent.setup();
    const asked: string[] = [];
    render(<Lookup onLookUp={(id) => asked.push(id)} />);
    const box = screen.getByLabelText('Order id');

    await user.click(screen.getByRole('button', { name: 'Look up' }));
    expect(screen.getByText('Enter an order id.')).toBeTruthy();
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(box);

    await user.type(box, 'o'.repeat(65));
    await user.click(screen.getByRole('button', { name: 'Look up' }));
    expect(screen.getByText('An order id is at most 64 characters.')).toBeTruthy();
    expect(document.activeElement).toBe(box);

    await user.clear(box);
    await user.type(box, `  ord_${'1'.repeat(60)}  `);
    await user.click(screen.getByRole('button', { name: 'Look up' }));
    expect(asked).toEqual([`ord_${'1'.repeat(60)}`]);
    expect(box.getAttribute('aria-invalid')).toBe('false');
    expect(screen.getByText('Fetches the order.')).toBeTruthy();
  });

  it('takes the focus on Ctrl+F', async () => {
    const user = userEvent.setup();
    render(<Lookup onLookUp={() => {}} />);
    await user.click(screen.getByRole('button', { name: 'Look up' }));
    await user.click(document.body);
    expect(document.activeElement).toBe(document.body);
    await user.keyboard('{Control>}f{/Control}');
    expect(document.activeElement).toBe(screen.getByLabelText('Order id'));
  });
});
