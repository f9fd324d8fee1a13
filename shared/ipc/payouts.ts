/** Schemas of the `payouts.*` channels: status lookups (each recorded), a payout's history, the recent list. */
import { z } from 'zod';
import { payoutSettings } from '../payout-ageing';
import { payoutCheckRequest, payoutCheckRun } from '../payout-checks';
import { watchState } from '../payout-watch';
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
  /** Expected turnaround per method and whether the watch list uses advance checks (per profile). */
  'payouts.settings': { input: z.object({}).strict(), output: payoutSettings },
  'payouts.saveSettings': { input: payoutSettings, output: payoutSettings },
  /** The watch list main runs: how many it watches, when it checked, what it noticed. */
  'payouts.watch': { input: z.object({}).strict(), output: watchState },
  /** A watch round now (the desk's "Refresh watch list"); answers the state after it. */
  'payouts.watchNow': { input: z.object({}).strict(), output: watchState },
} satisfies DomainSchemas<'payouts'>;
