import { isPendingApproval, type Proposal } from '../../../shared/approvals';
import { ProposedNotice } from '../approvals/ProposedNotice';
import { useEffect, useState, type FormEvent } from 'react';
import type { IpcError } from '../../../shared/ipc/contract';
import {
  CARD_NOT_SHOWN,
  isUpiLink,
  PROCESS_METHODS,
  processFieldsFor,
  processForm,
  type ProcessedPayment,
  type ProcessMethod,
} from '../../../shared/payment-tools';
import { ConfirmDialog } from '../ConfirmDialog';
import { OnActiveProfile } from '../EnvironmentBadge';
import { resultOf } from '../query/ipc-query';
import { errorsFromIpc, errorsFromIssues, zodIssues, type FormErrors } from '../ui/form-errors';
import { FormField } from '../ui/FormField';
import { SubmitButton } from '../ui/SubmitButton';
import { ErrorNotice } from '../ui/states';
import { QrCode } from './QrCode';
import { confirmWord, useApprovalNeeded } from '../approvals/approvals-queries';
import { amountInWords } from '../../../shared/amount-words';
import { formatMoney } from '../../../shared/money';
import { useOrderToProcess, useProcessOrder } from './tools-queries';

type Field = 'order_id' | 'method' | 'code' | 'vpa' | 'device';
const LABELS: Record<Field, string> = {
  order_id: 'Order id',
  method: 'Method',
  code: 'Code',
  vpa: 'Customer UPI address',
  device: 'Device',
};
const METHOD_NAMES: Record<ProcessMethod, string> = {
  upi: 'UPI',
  nb: 'Net banking',
  card: 'Card',
  wallet: 'Wallet',
  emi: 'EMI',
};
const CODE_HINTS: Record<ProcessMethod, string> = {
  upi: 'collect, qr or intent',
  nb: 'The bank code from Payment methods, such as HDFC',
  wallet: 'The wallet app code, such as paytm',
  emi: 'The EMI plan code',
  card: 'card',
};

type Draft = Record<Field, string>;
const EMPTY: Draft = { order_id: '', method: 'upi', code: 'collect', vpa: '', device: 'android' };

/**
 * What the confirmation says the order will be paid: its amount and currency, fetched as it opens, or that they could
 * not be fetched (the payment is then confirmed without them, knowingly).
 */
function OrderAmount({ orderId, onAmount }: { orderId: string; onAmount(amount: number | null): void }) {
  const order = useOrderToProcess(orderId);
  const o = order.data?.order;
  const amount = o?.amount ?? null;
  // The approval hint is by amount: the panel learns it once it is known.
  useEffect(() => onAmount(amount), [amount, onAmount]);
  if (order.isPending) return <p className="muted">Fetching the order&apos;s amount…</p>;
  if (!o) {
    return (
      <p className="notice notice-warning" role="note">
        The order&apos;s amount and currency could not be fetched ({order.error?.message ?? 'no answer'}): look the
        order up on Orders before confirming.
      </p>
    );
  }
  return (
    <dl className="money-confirm-facts">
      <dt>Amount</dt>
      <dd>
        <strong className="money-confirm-figures">{formatMoney(o.amount, o.currency)}</strong>
        <span className="money-confirm-words">{amountInWords(o.amount, o.currency)}</span>
      </dd>
      <dt>Currency</dt>
      <dd>{o.currency}</dd>
    </dl>
  );
}

/** Process order (seamless checkout) with the fields the method and code need; confirmed, sent once per submission. */
export function ProcessOrderPanel() {
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [errors, setErrors] = useState<FormErrors<Field>>({});
  const [pending, setPending] = useState<{ requestKey: string; order: ReturnType<typeof processForm.parse> } | null>(
    null,
  );
  const [confirming, setConfirming] = useState(false);
  const [paid, setPaid] = useState<ProcessedPayment | null>(null);
  const [proposed, setProposed] = useState<Proposal | null>(null);
  const [failure, setFailure] = useState<IpcError | null>(null);
  const [orderAmount, setOrderAmount] = useState<number | null>(null);
  const needsApproval = useApprovalNeeded('order.process', orderAmount);
  const process = useProcessOrder();
  const method = draft.method as ProcessMethod;
  const fields = processFieldsFor(method, draft.code);

  const change = (patch: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    // An edited form is a new submission with a new key; the one sent stays as it was.
    setPending(null);
  };

  function review(e: FormEvent) {
    e.preventDefault();
    const checked = processForm.safeParse({
      order_id: draft.order_id,
      method: draft.method,
      code: draft.code,
      vpa: draft.vpa.trim() || undefined,
      device: fields.device ? draft.device : undefined,
    });
    if (!checked.success) {
      setErrors(errorsFromIssues(LABELS, zodIssues(checked.error.issues)));
      return;
    }
    setErrors({});
    setPending((p) => p ?? { requestKey: crypto.randomUUID(), order: checked.data });
    setConfirming(true);
  }

  async function send() {
    if (!pending) return;
    setConfirming(false);
    setFailure(null);
    const r = await resultOf(process.mutateAsync({ requestKey: pending.requestKey, order: pending.order }));
    // The key stays until the form is edited: the same form sent again is the same submission, and gets this
    // answer back rather than a second payment.
    if (r.ok) {
      const value = r.value;
      if (isPendingApproval(value)) setProposed(value.pendingApproval);
      else setPaid(value);
    } else if (r.error.code === 'INVALID_INPUT') setErrors(errorsFromIpc(LABELS, r.error, 'order.'));
    else setFailure(r.error);
  }

  const unknown = failure?.code === 'API_OUTCOME_UNKNOWN' || failure?.code === 'API_INVALID_RESPONSE';
  return (
    <section className="tools-panel" aria-labelledby="tools-process-title">
      <h2 id="tools-process-title">Process order</h2>
      <form className="tools-row" onSubmit={review} noValidate>
        <FormField label={LABELS.order_id} error={errors.order_id}>
          {(p) => (
            <input
              {...p}
              className="input"
              value={draft.order_id}
              onChange={(e) => change({ order_id: e.target.value })}
            />
          )}
        </FormField>
        <FormField label={LABELS.method} error={errors.method}>
          {(p) => (
            <select
              {...p}
              className="input"
              value={draft.method}
              onChange={(e) => {
                const m = e.target.value as ProcessMethod;
                change({ method: m, code: m === 'upi' ? 'collect' : m === 'card' ? 'card' : '' });
              }}
            >
              {PROCESS_METHODS.map((m) => (
                <option key={m} value={m}>
                  {METHOD_NAMES[m]}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField label={LABELS.code} error={errors.code} hint={CODE_HINTS[method]}>
          {(p) =>
            fields.codes ? (
              <select {...p} className="input" value={draft.code} onChange={(e) => change({ code: e.target.value })}>
                {fields.codes.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </select>
            ) : (
              <input
                {...p}
                className="input tools-short"
                value={draft.code}
                onChange={(e) => change({ code: e.target.value })}
              />
            )
          }
        </FormField>
        {fields.vpa && (
          <FormField label={LABELS.vpa} error={errors.vpa} hint="Required for a collect request">
            {(p) => (
              <input {...p} className="input" value={draft.vpa} onChange={(e) => change({ vpa: e.target.value })} />
            )}
          </FormField>
        )}
        {fields.device && (
          <FormField label={LABELS.device} error={errors.device} hint="Required for a UPI intent">
            {(p) => (
              <select
                {...p}
                className="input"
                value={draft.device}
                onChange={(e) => change({ device: e.target.value })}
              >
                <option value="android">Android</option>
                <option value="ios">iOS</option>
              </select>
            )}
          </FormField>
        )}
        <SubmitButton
          pending={process.isPending}
          pendingLabel="Processing…"
          blocked={fields.card ? CARD_NOT_SHOWN : null}
        >
          Process order…
        </SubmitButton>
      </form>
      {fields.card && (
        <p className="notice notice-warning" role="note">
          Card fields: not shown by the interface. {CARD_NOT_SHOWN}
        </p>
      )}
      {errors.form && <p className="form-error">{errors.form}</p>}
      {failure && (
        <>
          <ErrorNotice error={failure} />
          {unknown && (
            <p className="notice notice-warning" role="note">
              Outcome unknown — check status: fetch order {pending?.order.order_id} and look at its payments before
              processing it again. This submission will not be sent again.
            </p>
          )}
        </>
      )}
      <ProposedNotice proposal={proposed} />
      {paid && <PaymentResult paid={paid} />}
      {confirming && pending && (
        <ConfirmDialog
          title={`Process order ${pending.order.order_id}?`}
          confirmLabel={confirmWord(needsApproval, 'Process order')}
          onConfirm={() => void send()}
          onCancel={() => setConfirming(false)}
        >
          <OrderAmount orderId={pending.order.order_id} onAmount={setOrderAmount} />
          <p>
            Starts a {METHOD_NAMES[pending.order.method]} payment ({pending.order.code})
            {pending.order.vpa ? ` with a collect request to ${pending.order.vpa}` : ''}
            {pending.order.device ? ` for an ${pending.order.device} device` : ''}.
          </p>
          <OnActiveProfile />
        </ConfirmDialog>
      )}
    </section>
  );
}

function PaymentResult({ paid }: { paid: ProcessedPayment }) {
  return (
    <div className="tools-result" aria-label="Processed payment">
      <dl className="facts">
        <dt>Payment id</dt>
        <dd className="mono">{paid.paymentId}</dd>
        <dt>Type</dt>
        <dd>{paid.type ?? '—'}</dd>
        <dt>Token</dt>
        <dd className="mono">{paid.token ?? '—'}</dd>
        <dt>Payment link</dt>
        <dd className="mono tools-link">{paid.url ?? '—'}</dd>
        {paid.message && (
          <>
            <dt>Message</dt>
            <dd>{paid.message}</dd>
          </>
        )}
        <dt>Journal</dt>
        <dd>entry {paid.attemptSeq}</dd>
      </dl>
      {isUpiLink(paid.url) && (
        <QrCode text={paid.url} label={`QR code of the UPI link for payment ${paid.paymentId}`} />
      )}
    </div>
  );
}
