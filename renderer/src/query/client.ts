/**
 * The renderer's one QueryClient. Reads go to main over IPC, not to the network, so they run whatever the
 * browser thinks of its connection (`networkMode: 'always'`); main already retries the service where it is
 * safe, so a failed read is shown at once with "Try again" instead of being retried here. A screen reads its data
 * again each time it opens (the default stale time of 0): the cache is local and cheap to read, and another
 * screen, a sync or the command line may have changed it since.
 */
import { QueryClient } from '@tanstack/react-query';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { networkMode: 'always', retry: false, refetchOnWindowFocus: false, staleTime: 0 },
      mutations: { networkMode: 'always', retry: false },
    },
  });
}
