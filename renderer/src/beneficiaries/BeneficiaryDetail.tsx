import { useId, useState } from 'react';
import type { CachedBeneficiary } from '../../../shared/beneficiaries';
import type { IpcError } from '../../../shared/ipc/contract';
import { AsOf } from '../ui/AsOf';
import { ErrorNotice } from '../ui/states';
import { present } from './beneficiary-form';
import { resultOf } from '../query/ipc-query';
import { useOfflineReason } from '../ui/offline';
import { useBeneficiaryFetch } from './beneficiaries-queries';

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
