/** The low-headroom alert for the status bar, on every screen: the gateways below the desk's alert, or nothing. */
import { useHeadroom } from './accounts-queries';

export function useHeadroomAlert(): string | null {
  const headroom = useHeadroom();
  const low = headroom.data?.gateways.filter((g) => g.low) ?? [];
  return low.length === 0 ? null : `Low headroom: ${low.map((g) => g.pg).join(', ')}`;
}
