import { isFailedTransfer, isPendingTransfer } from '../../../shared/payouts';

/** "in_process" → "In process". */
export function statusWords(status: string): string {
  const words = status.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A transfer's status as a badge whose colour and words agree: done, failed, or still on its way. */
export function TransferStatus({ status }: { status: string | null }) {
  if (status === null) return <span className="payout-status payout-status-none">No answer</span>;
  const tone =
    status === 'success' ? 'ok' : isFailedTransfer(status) ? 'failed' : isPendingTransfer(status) ? 'pending' : 'other';
  return <span className={`payout-status payout-status-${tone}`}>{statusWords(status)}</span>;
}
