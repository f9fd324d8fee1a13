import { useState, type FormEvent } from 'react';
import type { IpcError, IpcOutput } from '../../../shared/ipc/contract';
import { methodsQuery } from '../../../shared/payment-tools';
import { resultOf } from '../query/ipc-query';
import { errorsFromIpc, errorsFromIssues, zodIssues, type FormErrors } from '../ui/form-errors';
import { FormField } from '../ui/FormField';
import { RupeesField } from '../ui/RupeesField';
import { SubmitButton } from '../ui/SubmitButton';
import { ErrorNotice } from '../ui/states';
import { useMethods } from './tools-queries';

type Field = 'amount' | 'currency' | 'pg';
const LABELS: Record<Field, string> = { amount: 'Amount (₹)', currency: 'Currency', pg: 'Gateway' };
const SECTION_TITLES = {
  netbanking: 'Net banking',
  debitcard: 'Debit cards',
  creditcard: 'Credit cards',
  upi: 'UPI apps',
};

type Listing = IpcOutput<'tools.methods'>;

/** The payment methods for an amount, currency and gateway, grouped as the listing is. */
export function MethodsPanel() {
  const [form, setForm] = useState<Record<Field, string>>({ amount: '', currency: 'INR', pg: '' });
  const [errors, setErrors] = useState<FormErrors<Field>>({});
  const [listing, setListing] = useState<Listing | null>(null);
  const [failure, setFailure] = useState<IpcError | null>(null);
  const methods = useMethods();

  async function submit(e: FormEvent) {
    e.preventDefault();
    const input = {
      amount: form.amount.trim() || undefined,
      currency: form.currency.trim().toUpperCase() || undefined,
      pg: form.pg.trim() || undefined,
    };
    const checked = methodsQuery.safeParse(input);
    if (!checked.success) {
      setErrors(errorsFromIssues(LABELS, zodIssues(checked.error.issues)));
      return;
    }
    setErrors({});
    setFailure(null);
    const r = await resultOf(methods.mutateAsync(input));
    if (r.ok) setListing(r.value);
    else if (r.error.code === 'INVALID_INPUT') setErrors(errorsFromIpc(LABELS, r.error));
    else setFailure(r.error);
  }

  return (
    <section className="tools-panel" aria-labelledby="tools-methods-title">
      <h2 id="tools-methods-title">Payment methods</h2>
      <form className="tools-row" onSubmit={(e) => void submit(e)} noValidate>
        <RupeesField
          label={LABELS.amount}
          value={form.amount}
          onChange={(amount) => setForm({ ...form, amount })}
          error={errors.amount}
          hint="Optional; sent in paise"
          className="input"
        />
        <FormField label={LABELS.currency} error={errors.currency}>
          {(p) => (
            <input
              {...p}
              className="input tools-short"
              value={form.currency}
              onChange={(e) => setForm({ ...form, currency: e.target.value })}
            />
          )}
        </FormField>
        <FormField label={LABELS.pg} error={errors.pg} hint="Optional">
          {(p) => (
            <input
              {...p}
              className="input tools-short"
              value={form.pg}
              onChange={(e) => setForm({ ...form, pg: e.target.value })}
            />
          )}
        </FormField>
        <SubmitButton pending={methods.isPending} pendingLabel="Listing…">
          List methods
        </SubmitButton>
      </form>
      {failure && <ErrorNotice error={failure} />}
      {listing && <Groups listing={listing} />}
    </section>
  );
}

function Groups({ listing }: { listing: Listing }) {
  const g = listing.groups;
  return (
    <div className="tools-groups">
      {g.order.map((section) => (
        <div key={section} className="tools-group">
          <h3>{SECTION_TITLES[section]}</h3>
          {section === 'netbanking' ? (
            <ul className="tools-list" aria-label="Net banking">
              {g.netbanking.map((b) => (
                <li key={b.code}>
                  <span className="mono">{b.code}</span> {b.title}
                  {b.favourite && <span className="tag tag-active">Favourite</span>}
                  {b.healthy === false && <span className="tag tools-down">Down</span>}
                </li>
              ))}
            </ul>
          ) : (
            <ul className="tools-list" aria-label={SECTION_TITLES[section]}>
              {g[section].map((m) => (
                <li key={m.code}>
                  <span className="mono">{m.code}</span> {m.title}
                </li>
              ))}
            </ul>
          )}
        </div>
      ))}
      <div className="tools-group">
        <h3>Flags</h3>
        <ul className="tools-list" aria-label="Flags">
          {g.flags.map((f) => (
            <li key={f.key}>
              {f.label}: <strong>{f.on === null ? 'not given' : f.on ? 'yes' : 'no'}</strong>
              {f.value && <span className="muted"> {f.value}</span>}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
