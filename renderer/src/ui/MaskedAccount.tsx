import { accountLabel, maskAccount } from '../../../shared/accounts';

/** An account number as its last four digits (read out as "account ending 1234"), with the IFSC when known. */
export function MaskedAccount({
  account,
  ifsc,
  className = '',
}: {
  account: string;
  ifsc?: string | null;
  className?: string;
}) {
  return (
    <span className={`mono masked-account ${className}`.trim()}>
      <span aria-hidden="true">{maskAccount(account)}</span>
      <span className="sr-only">{accountLabel(account)}</span>
      {ifsc ? <span className="muted"> {ifsc}</span> : null}
    </span>
  );
}
