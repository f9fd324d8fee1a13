import { useState, type FormEvent } from 'react';
import type { IpcError, IpcOutput } from '../../../shared/ipc/contract';
import { formatMoney } from '../../../shared/money';
import { convertExactly } from '../../../shared/payment-tools';
import { checkRupees } from '../../../shared/rupees';
import { resultOf } from '../query/ipc-query';
import { FormField } from '../ui/FormField';
import { RupeesField } from '../ui/RupeesField';
import { useOfflineReason } from '../ui/offline';
import { ErrorNotice } from '../ui/states';
import { useCurrency, useVerifyVpa } from './tools-queries';

/** UPI address validation and currency conversion: two lookups that change nothing. */
export function LookupsPanel() {
  return (
    <div className="tools-pair">
      <VpaCheck />
      <CurrencyCheck />
    </div>
  );
}

function VpaCheck() {
  const [vpa, setVpa] = useState('');
  const [answer, setAnswer] = useState<IpcOutput<'beneficiaries.verifyVpa'> | null>(null);
  const [failure, setFailure] = useState<IpcError | null>(null);
  const verify = useVerifyVpa();
  const offline = useOfflineReason();
  async function submit(e: FormEvent) {
    e.preventDefault();
    setFailure(null);
    setAnswer(null);
    const r = await resultOf(verify.mutateAsync({ vpa: vpa.trim() }));
    if (r.ok) setAnswer(r.value);
    else setFailure(r.error);
  }
  return (
    <section className="tools-panel" aria-labelledby="tools-vpa-title">
      <h2 id="tools-vpa-title">Validate a UPI address</h2>
      <form className="tools-row" onSubmit={(e) => void submit(e)} noValidate>
        <FormField label="UPI address" hint="name@bank">
          {(p) => <input {...p} className="input" value={vpa} onChange={(e) => setVpa(e.target.value)} />}
        </FormField>
        <button
          type="submit"
          className="button"
          disabled={verify.isPending || offline !== null || !vpa.trim()}
          title={offline ?? undefined}
        >
          Validate
        </button>
      </form>
      {failure && (
        <ErrorNotice
          error={
            failure.code === 'INVALID_INPUT'
              ? { code: failure.code, message: 'Enter a UPI address such as name@bank.' }
              : failure
          }
        />
      )}
      {answer && (
        <p className={`notice ${answer.valid ? '' : 'notice-warning'}`} role="status">
          {answer.valid
            ? `${answer.vpa} is valid${answer.accountName ? `: ${answer.accountName}` : ''}.`
            : `${answer.vpa} is not registered with any UPI app.`}
        </p>
      )}
    </section>
  );
}

function CurrencyCheck() {
  const [from, setFrom] = useState('USD');
  const [to, setTo] = useState('INR');
  const [amount, setAmount] = useState('');
  const [amountError, setAmountError] = useState<string | undefined>();
  const [answer, setAnswer] = useState<{ rate: IpcOutput<'tools.currency'>; minor: number | null } | null>(null);
  const [failure, setFailure] = useState<IpcError | null>(null);
  const currency = useCurrency();
  const offline = useOfflineReason();
  async function submit(e: FormEvent) {
    e.preventDefault();
    let minor: number | null = null;
    if (amount.trim()) {
      const parsed = checkRupees(amount);
      if (!parsed.ok) {
        setAmountError(parsed.reason);
        return;
      }
      minor = parsed.minor;
    }
    setAmountError(undefined);
    setFailure(null);
    const r = await resultOf(currency.mutateAsync({ from: from.trim().toUpperCase(), to: to.trim().toUpperCase() }));
    if (r.ok) setAnswer({ rate: r.value, minor });
    else setFailure(r.error);
  }
  return (
    <section className="tools-panel" aria-labelledby="tools-currency-title">
      <h2 id="tools-currency-title">Currency conversion</h2>
      <form className="tools-row" onSubmit={(e) => void submit(e)} noValidate>
        <FormField label="From">
          {(p) => <input {...p} className="input tools-short" value={from} onChange={(e) => setFrom(e.target.value)} />}
        </FormField>
        <FormField label="To">
          {(p) => <input {...p} className="input tools-short" value={to} onChange={(e) => setTo(e.target.value)} />}
        </FormField>
        <RupeesField
          label="Amount"
          value={amount}
          onChange={setAmount}
          error={amountError}
          hint="Optional"
          className="input tools-short"
        />
        <button
          type="submit"
          className="button"
          disabled={currency.isPending || offline !== null}
          title={offline ?? undefined}
        >
          Convert
        </button>
      </form>
      {failure && <ErrorNotice error={failure} />}
      {answer && (
        <p className="notice" role="status">
          1 {answer.rate.from} = <strong className="mono">{answer.rate.rate}</strong> {answer.rate.to}
          {answer.minor !== null && (
            <>
              <br />
              {formatMoney(answer.minor, answer.rate.from)} ={' '}
              <strong className="mono">{convertExactly(answer.minor, answer.rate.rate)}</strong> {answer.rate.to}{' '}
              (exact)
            </>
          )}
        </p>
      )}
    </section>
  );
}
