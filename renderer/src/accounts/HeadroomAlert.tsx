/** The low-headroom alert in the status bar, on every screen: the gateways below the desk's alert, or nothing. */
import { useHeadroom } from './accounts-queries';

export function HeadroomAlert() {
  const headroom = useHeadroom();
  const low = headroom.data?.gateways.filter((g) => g.low) ?? [];
  if (low.length === 0) return null;
  return (
    <span className="status-headroom-low" role="status" data-testid="headroom-alert">
      Low headroom: {low.map((g) => g.pg).join(', ')}
    </span>
  );
}
