/** Schemas of the `payouts.*` channels: status lookups (each recorded), a payout's history, the recent list. */
import { z } from 'zod';
import { payoutLookup, payoutLookupRequest } from '../payouts';
import type { DomainSchemas } from './contract';

export const payoutsChannels = {
  'payouts.lookup': { input: payoutLookupRequest, output: payoutLookup },
  'payouts.history': {
    input: z.object({ payoutId: z.string().min(1).max(64) }).strict(),
    output: z.array(payoutLookup),
  },
  /** The latest lookup of each payout, most recently checked first: the watch list reads its pending ones. */
  'payouts.recent': {
    input: z.object({ limit: z.number().int().min(1).max(500).optional() }).strict(),
    output: z.array(payoutLookup),
  },
} satisfies DomainSchemas<'payouts'>;
