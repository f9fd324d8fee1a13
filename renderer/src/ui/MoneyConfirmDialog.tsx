import { useState, type ReactNode } from 'react';
import { amountInWords } from '../../../shared/amount-words';
import { checkRupees, RETYPE_ABOVE_MINOR } from '../../../shared/rupees';
import type { Environment } from '../../../shared/profiles';
import { EnvironmentBadge } from '../EnvironmentBadge';
import { ConfirmDialog } from '../ConfirmDialog';
import { formatMoney } from '../../../shared/money';
import { RupeesField } from './RupeesField';

/**
 * The confirmation of an action that moves money: what it acts on, the amount in figures and in words, and the
 * profile's environment. Above RETYPE_ABOVE_MINOR the amount must be typed again (parsed exactly) before the confirm
 * button works. Focus starts on Cancel, so a stray Enter never confirms.
 */
export function MoneyConfirmDialog({
  title,
  subject,
  amount,
  currency,
  environment,
  confirmLabel,
  busy,
  onConfirm,
  onCancel,
  children,
}: {
  title: string;
  /** What the action is on: "Order ord_…". */
  subject: ReactNode;
  /** Paise; null for an action that moves no amount of its own choosing (a capture of the whole order). */
  amount: number | null;
  currency: string;
  environment: Environment | null;
  confirmLabel: string;
  busy: boolean;
  onConfirm(): void;
  onCancel(): void;
  children?: ReactNode;
}) {
  const [retyped, setRetyped] = useState('');
  const mustRetype = amount !== null && amount > RETYPE_ABOVE_MINOR;
  const check = checkRupees(retyped);
  const matches = check.ok && check.minor === amount;
  const retypeError =
    mustRetype && retyped.trim() !== '' && !matches
      ? check.ok
        ? 'That is not the same amount.'
        : check.reason
      : undefined;
  return (
    <ConfirmDialog
      title={title}
      confirmLabel={busy ? 'Sending…' : confirmLabel}
      busy={busy}
      blocked={mustRetype && !matches ? 'Type the amount again to confirm.' : undefined}
      className="money-confirm"
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <dl className="money-confirm-facts">
        <dt>On</dt>
        <dd>{subject}</dd>
        {amount !== null && (
          <>
            <dt>Amount</dt>
            <dd>
              <strong className="money-confirm-figures">{formatMoney(amount, currency)}</strong>
              <span className="money-confirm-words">{amountInWords(amount, currency)}</span>
            </dd>
          </>
        )}
        <dt>Environment</dt>
        <dd>{environment ? <EnvironmentBadge environment={environment} /> : '—'}</dd>
      </dl>
      {children}
      {mustRetype && (
        <RupeesField
          label="Type the amount again, in rupees"
          value={retyped}
          onChange={setRetyped}
          error={retypeError}
          hint={`Asked above ${formatMoney(RETYPE_ABOVE_MINOR)}, so a slipped digit cannot go through.`}
        />
      )}
    </ConfirmDialog>
  );
}
