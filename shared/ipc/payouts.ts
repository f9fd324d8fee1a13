/** Schemas of the `payouts.*` channels: status lookups (each recorded), a payout's history, the recent list. */
import { z } from 'zod';
import { payoutCheckRequest, payoutCheckRun } from '../payout-checks';
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
  /** Checks a list of payout ids (distinct, at most 2,000) and answers the run when every id has ended. */
  'payouts.check': { input: payoutCheckRequest, output: payoutCheckRun },
  /** A bulk check run by id, or the latest one when none is given; null when there is none. */
  'payouts.checkRun': {
    input: z.object({ runId: z.number().int().positive().optional() }).strict(),
    output: payoutCheckRun.nullable(),
  },
} satisfies DomainSchemas<'payouts'>;
