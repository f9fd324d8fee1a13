/** Settlement records of a date, one page at a time or all pages in order. */
import { SETTLEMENT_PAGE, type SettlementPage } from '../../shared/api/settlements';
import type { ApiClient, CallOptions } from './client';

export interface SettlementQuery {
  date: string;
  pg?: string;
  offset?: number;
  limit?: number;
}

export function settlementsApi(client: ApiClient) {
  const page = ({ date, pg, offset, limit }: SettlementQuery, o?: CallOptions) =>
    client.call('settlement.fetch', { date, pg, offset, limit }, o);

  return {
    page,
    /**
     * Every page of a date from `offset` on, in order, one request at a time. A page that comes back
     * empty without `is_last_page` ends the walk too, so a misbehaving server cannot loop it forever.
     */
    async *pages(query: SettlementQuery, o?: CallOptions): AsyncGenerator<SettlementPage & { offset: number }> {
      const limit = query.limit ?? SETTLEMENT_PAGE.maxLimit;
      let offset = query.offset ?? 0;
      for (;;) {
        const p = await page({ ...query, offset, limit }, o);
        yield { ...p, offset };
        if (p.is_last_page || p.data.length === 0) return;
        offset += p.data.length;
      }
    },
  };
}
