import { formatIstInstant } from '../../../shared/format';

/** Every data view says how fresh it is; null means the cache holds nothing for it yet. */
export function AsOf({ at, label = 'As of' }: { at: string | null; label?: string }) {
  return (
    <span className="as-of muted" data-testid="as-of">
      {at === null ? 'Not fetched yet' : `${label} ${formatIstInstant(at)}`}
    </span>
  );
}
