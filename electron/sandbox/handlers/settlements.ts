/**
 * Settlement fetch: one page of a date's records. Paging limits are the project's documented ones
 * (SETTLEMENT_PAGE): default 100, maximum 1000; a larger limit is refused rather than silently cut, so a
 * client that advances its offset by the limit it asked for can never skip records. A date outside the
 * 90 days the sandbox holds is an empty last page; an offset past the end is an empty last page.
 */
import { SETTLEMENT_PAGE } from '../../../shared/api/settlements';
import { invalid, ok, unknownGateway, type Handlers } from './reply';

export const settlementHandlers: Handlers<'settlement.fetch'> = {
  'settlement.fetch': ({ date, pg, offset, limit }, ctx) => {
    const bad = unknownGateway(pg, ctx);
    if (bad) return bad;
    // The request schema has already refused a limit above SETTLEMENT_PAGE.maxLimit.
    const size = limit === undefined ? SETTLEMENT_PAGE.defaultLimit : Number(limit);
    const start = offset === undefined ? 0 : Number(offset);
    if (!Number.isSafeInteger(start)) return invalid('offset: too large');
    if (!ctx.settlementDates().includes(date)) return ok({ data: [], is_last_page: true, request_id: ctx.requestId });
    const page = ctx.settlements.page(date, pg, start, size);
    return ok({ data: page.data, is_last_page: page.isLastPage, request_id: ctx.requestId });
  },
};
