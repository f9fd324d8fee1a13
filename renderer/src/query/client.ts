/**
 * The renderer's one QueryClient. Reads go to main over IPC, not to the network, so they run whatever the
 * browser thinks of its connection (`networkMode: 'always'`); main already retries the service where it is
 * safe, so a failed read is shown at once with "Try again" instead of being retried here.
 */
import { QueryClient } from '@tanstack/react-query';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { networkMode: 'always', retry: false, refetchOnWindowFocus: false, staleTime: 5_000 },
      mutations: { networkMode: 'always', retry: false },
    },
  });
}
