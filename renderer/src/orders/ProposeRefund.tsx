import { useState, type FormEvent } from 'react';
import { checkRupees } from '../../../shared/rupees';
import { useConfirmedAction } from '../query/journaled-action';
import { useAppInfo } from '../query/app-queries';
import { MoneyConfirmDialog } from '../ui/MoneyConfirmDialog';
import { RupeesField } from '../ui/RupeesField';
import { ActionsPanel } from './lookup-parts';
import { useRefund } from './orders-queries';

/**
 * A refund proposed on a console that holds no API secret, so it cannot read the order: the amount as the person
 * types it, sent for approval; the approving console reads the order and what is refundable before it sends. The
 * amount is in rupees, the interface's currency for refunds typed here; the approver's review shows the order's own.
 */
export function ProposeRefund({ orderId }: { orderId: string }) {
  const environment = useAppInfo().data?.profile.environment ?? null;
  const refund = useRefund();
  const { pending, ask, drop, outcome, confirm } = useConfirmedAction<{ requestKey: string; amount: number }>();
  const [typed, setTyped] = useState('');
  const [typedError, setTypedError] = useState<string>();

  function askRefund(event: FormEvent) {
    event.preventDefault();
    const check = checkRupees(typed);
    setTypedError(check.ok ? undefined : check.reason);
    if (check.ok) ask({ requestKey: crypto.randomUUID(), amount: check.minor });
  }

  async function send() {
    const done = await confirm((p) => refund.mutateAsync({ requestKey: p.requestKey, orderId, amount: p.amount }));
    if (done) setTyped('');
  }

  return (
    <ActionsPanel id="propose-refund-title" outcome={outcome}>
      <form className="order-partial" onSubmit={askRefund} noValidate aria-label="Propose a refund">
        <RupeesField
          label="Refund, in rupees"
          value={typed}
          onChange={(value) => {
            setTyped(value);
            setTypedError(undefined);
          }}
          error={typedError}
          inWords="INR"
          hint="The approver's console checks it against what is refundable before it sends."
          placeholder="1500.50"
        />
        <button type="submit" className="button" disabled={refund.isPending}>
          Propose refund…
        </button>
      </form>
      {pending && (
        <MoneyConfirmDialog
          title="Propose this refund?"
          subject={
            <>
              Order <span className="mono">{orderId}</span>, not read on this console
            </>
          }
          amount={pending.amount}
          currency="INR"
          environment={environment}
          confirmLabel="Send for approval"
          busy={refund.isPending}
          onConfirm={() => void send()}
          onCancel={() => {
            if (!refund.isPending) drop();
          }}
        />
      )}
    </ActionsPanel>
  );
}
