import { useId, useState } from 'react';
import type { CachedBeneficiary } from '../../../shared/beneficiaries';
import type { IpcError } from '../../../shared/ipc/contract';
import { AsOf } from '../ui/AsOf';
import { ErrorNotice } from '../ui/states';
import { present } from './beneficiary-form';
import { resultOf } from '../query/ipc-query';
import { useOfflineReason } from '../ui/offline';
import { useBankDetailChanges, useBeneficiaryFetch } from './beneficiaries-queries';
import { formatIstInstant } from '../../../shared/format';

/** Fields the API sent beyond the contract, as sent: text as is, anything else as JSON. */
function extraText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function Fact({ label, value, mono = false }: { label: string; value: string | null; mono?: boolean }) {
  return (
    <>
      <dt>{label}</dt>
      <dd className={mono && value ? 'mono' : undefined}>{value ?? <span className="muted">Not given</span>}</dd>
    </>
  );
}

const detail = (v: string | null) => present(v) ?? '—';

/**
 * A payee whose bank account, IFSC or UPI address changed at the service: a fraud signal, shown first and plainly,
 * with every change the cache saw (what it was, what it became, when).
 */
function BankDetailChanges({ id, at }: { id: string; at: string }) {
  const changes = useBankDetailChanges(id);
  return (
    <div className="notice notice-warning bene-changed" role="alert">
      <strong>Bank details changed on {formatIstInstant(at)}.</strong> Confirm the new details with the payee before
      paying.
      {changes.data && (
        <ul className="bene-change-list">
          {changes.data.map((c) => (
            <li key={c.changedAt}>
              {formatIstInstant(c.changedAt)}: account{' '}
              <span className="mono">
                {detail(c.before.account_number)} ({detail(c.before.ifsc)})
              </span>{' '}
              →{' '}
              <span className="mono">
                {detail(c.after.account_number)} ({detail(c.after.ifsc)})
              </span>
              ; UPI <span className="mono">{detail(c.before.vpa)}</span> →{' '}
              <span className="mono">{detail(c.after.vpa)}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * Everything the cache holds about one beneficiary, and a way to read it again from the service. The screen keys
 * it by id, so an error about one beneficiary never shows beside another.
 */
export function BeneficiaryDetail({ beneficiary: b, onClose }: { beneficiary: CachedBeneficiary; onClose(): void }) {
  const fetch = useBeneficiaryFetch();
  const offline = useOfflineReason();
  const refreshing = fetch.isPending;
  const [error, setError] = useState<IpcError | null>(null);
  const titleId = useId();

  async function refresh() {
    const result = await resultOf(fetch.mutateAsync({ id: b.beneficiary_id }));
    setError(result.ok ? null : result.error);
  }

  const extra = Object.entries(b.extra ?? {});
  return (
    <aside
      className="bene-detail"
      aria-labelledby={titleId}
      aria-busy={refreshing}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onClose();
      }}
    >
      <header className="bene-detail-head">
        <h2 id={titleId}>{b.name}</h2>
        <button type="button" className="button bene-close" aria-label="Close details" onClick={onClose}>
          ×
        </button>
      </header>
      <AsOf at={b.fetchedAt} label="Fetched" />
      {b.bankDetailsChangedAt && <BankDetailChanges id={b.beneficiary_id} at={b.bankDetailsChangedAt} />}
      <dl className="bene-facts">
        <Fact label="Beneficiary id" value={b.beneficiary_id} mono />
        <Fact label="Account number" value={present(b.account_number)} mono />
        <Fact label="IFSC" value={present(b.ifsc)} mono />
        <Fact label="UPI address" value={present(b.vpa)} mono />
        <Fact label="Phone" value={present(b.phone)} mono />
        <Fact label="Email" value={present(b.email)} />
        <Fact label="Address" value={present(b.address)} />
        {extra.map(([key, value]) => (
          <Fact key={key} label={key} value={extraText(value)} mono />
        ))}
      </dl>
      {extra.length > 0 && (
        <p className="muted bene-detail-note">
          The last {extra.length === 1 ? 'field was' : `${extra.length} fields were`} sent by the service beyond the
          documented ones, kept as sent.
        </p>
      )}
      <div className="bene-detail-actions">
        <button
          type="button"
          className="button"
          onClick={() => void refresh()}
          disabled={refreshing || offline !== null}
          title={offline ?? undefined}
        >
          {refreshing ? 'Refreshing…' : 'Refresh from service'}
        </button>
      </div>
      {error && <ErrorNotice error={error} onRetry={() => void refresh()} />}
    </aside>
  );
}
