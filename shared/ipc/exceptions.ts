/** Schemas of the `exceptions.*` channels: the exception queue and its bulk actions, in local or desk mode. */
import { z } from 'zod';
import { bulkRequest, bulkResult, queueFilter, queuePage } from '../desk';
import type { DomainSchemas } from './contract';

export const QUEUE_PAGE_SIZE = 200;

export const exceptionsChannels = {
  /** A page of the queue with the whole filtered set's count, amount at risk and groups. */
  'exceptions.queue': {
    input: z
      .object({
        filter: queueFilter,
        offset: z.number().int().min(0).max(10_000_000),
        limit: z.number().int().min(1).max(QUEUE_PAGE_SIZE),
      })
      .strict(),
    output: queuePage,
  },
  /** One action on a selection or on the whole filtered set: all or none, one journal entry. */
  'exceptions.bulk': { input: bulkRequest.strict(), output: bulkResult },
} satisfies DomainSchemas<'exceptions'>;
