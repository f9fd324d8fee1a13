import { useState, type FormEvent } from 'react';
import { checkRupees } from '../../../shared/rupees';
import { refundProblem, type OrderView } from '../../../shared/orders';
import { confirmWord, useApprovalNeeded } from '../approvals/approvals-queries';
import { useConfirmedAction } from '../query/journaled-action';
import { useAppInfo } from '../query/app-queries';
import { formatMoney } from '../../../shared/money';
import { MoneyConfirmDialog } from '../ui/MoneyConfirmDialog';
import { RupeesField } from '../ui/RupeesField';
import { useOfflineReason } from '../ui/offline';
import { ActionsPanel } from './lookup-parts';
import { useCapture, useRefund } from './orders-queries';

type Pending =
  | { kind: 'capture'; requestKey: string }
  | { kind: 'full'; requestKey: string; amount: number }
  | { kind: 'partial'; requestKey: string; amount: number };

/**
 * Capture, full refund and partial refund of the order on screen. Each opens a confirmation with the amount in figures
 * and words and the environment; the confirmation makes one request key, and a second click while it is out sends
 * nothing (the button is busy, and main answers a repeated key with the first answer).
 */
export function OrderActions({ view }: { view: OrderView }) {
  const offline = useOfflineReason();
  const environment = useAppInfo().data?.profile.environment ?? null;
  const capture = useCapture();
  const refund = useRefund();
  const { pending, ask, drop, outcome, confirm } = useConfirmedAction<Pending>();
  const [typed, setTyped] = useState('');
  const [typedError, setTypedError] = useState<string>();
  const o = view.order;
  const balance = view.balance;
  const busy = capture.isPending || refund.isPending;
  // A hint for the confirmation's button; the desk decides when it is confirmed.
  const captureNeedsApproval = useApprovalNeeded('order.capture', o.amount);
  const refundNeedsApproval = useApprovalNeeded(
    'order.refund',
    pending && pending.kind !== 'capture' ? pending.amount : null,
  );

  const canCapture = o.order_status.toLowerCase() === 'authorized';
  const noRefund =
    balance === null
      ? 'The refund attempts are not known, so neither is the refundable balance.'
      : balance.refundable === 0
        ? 'Nothing is left to refund.'
        : null;
  const why = (own: string | null) => offline ?? own ?? undefined;

  function askPartial(event: FormEvent) {
    event.preventDefault();
    if (!balance) return;
    const check = checkRupees(typed);
    const problem = check.ok ? refundProblem(check.minor, balance, o.currency) : check.reason;
    setTypedError(problem ?? undefined);
    if (!check.ok || problem) return;
    ask({ kind: 'partial', requestKey: crypto.randomUUID(), amount: check.minor });
  }

  async function send() {
    const kind = pending?.kind;
    const done = await confirm((p) =>
      p.kind === 'capture'
        ? capture.mutateAsync({ requestKey: p.requestKey, orderId: o.order_id })
        : refund.mutateAsync({
            requestKey: p.requestKey,
            orderId: o.order_id,
            amount: p.kind === 'full' ? null : p.amount,
          }),
    );
    if (done && kind === 'partial') setTyped('');
  }

  return (
    <ActionsPanel id="order-actions-title" outcome={outcome}>
      <div className="order-actions">
        <button
          type="button"
          className="button"
          disabled={!canCapture || offline !== null || busy}
          title={why(canCapture ? null : `Only an authorized order can be captured; this one is ${o.order_status}.`)}
          onClick={() => ask({ kind: 'capture', requestKey: crypto.randomUUID() })}
        >
          Capture…
        </button>
        <button
          type="button"
          className="button"
          disabled={noRefund !== null || offline !== null || busy}
          title={why(noRefund)}
          onClick={() => balance && ask({ kind: 'full', requestKey: crypto.randomUUID(), amount: balance.refundable })}
        >
          Refund in full…
        </button>
      </div>
      <form className="order-partial" onSubmit={askPartial} noValidate aria-label="Partial refund">
        <RupeesField
          label="Partial refund, in rupees"
          value={typed}
          onChange={(value) => {
            setTyped(value);
            setTypedError(undefined);
          }}
          error={typedError}
          inWords={o.currency}
          hint={balance ? `At most ${formatMoney(balance.refundable, o.currency)}; paise as two decimals.` : undefined}
          placeholder="1500.50"
          disabled={noRefund !== null}
        />
        <button
          type="submit"
          className="button"
          disabled={noRefund !== null || offline !== null || busy}
          title={why(noRefund)}
        >
          Refund part…
        </button>
      </form>
      {pending && (
        <MoneyConfirmDialog
          title={
            pending.kind === 'capture'
              ? 'Capture this payment?'
              : pending.kind === 'full'
                ? 'Refund this order in full?'
                : 'Refund part of this order?'
          }
          subject={
            <>
              Order <span className="mono">{o.order_id}</span>
              {o.customer?.name ? ` · ${o.customer.name}` : ''} · {formatMoney(o.amount, o.currency)}
            </>
          }
          amount={pending.kind === 'capture' ? o.amount : pending.amount}
          currency={o.currency}
          environment={environment}
          confirmLabel={
            pending.kind === 'capture'
              ? confirmWord(captureNeedsApproval, 'Capture')
              : confirmWord(refundNeedsApproval, 'Refund')
          }
          busy={busy}
          onConfirm={() => void send()}
          onCancel={() => {
            if (!busy) drop();
          }}
        >
          {pending.kind !== 'capture' && balance && (
            <p className="muted">
              Refundable now {formatMoney(balance.refundable, o.currency)}; main checks it again with the service before
              sending.
            </p>
          )}
        </MoneyConfirmDialog>
      )}
    </ActionsPanel>
  );
}
