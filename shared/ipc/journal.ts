/**
 * Schemas of the `journal.*` channels, all on the active profile: reading and verifying its audit journal,
 * settling an action whose outcome is unknown, and closing, reopening and acknowledging settlement periods.
 */
import { z } from 'zod';
import { cachedBeneficiary } from '../beneficiaries';
import {
  closeRange,
  closedPeriod,
  journalEntry,
  journalFilter,
  periodDiff,
  unresolvedAction,
  verifyResult,
} from '../journal';
import { calendarDate } from '../api/common';
import { lastVerification } from '../today';
import type { DomainSchemas } from './contract';

const periodId = z.object({ id: z.number().int().positive() }).strict();

export const journalChannels = {
  /** Newest first, filtered; `head` is the journal's last entry (seq 0 for an empty one). */
  'journal.list': {
    input: journalFilter,
    output: z.object({
      entries: z.array(journalEntry),
      head: z.object({ seq: z.number().int().nonnegative(), hash: z.string() }),
    }),
  },
  /** Recomputes the whole chain against the head in the settings. */
  'journal.verify': { input: z.undefined(), output: verifyResult },
  /** When the journal was last verified (by the app or `journal verify`) and what that found; null before the first. */
  'journal.lastVerification': { input: z.undefined(), output: lastVerification.nullable() },
  /** Actions at the service whose outcome is not known, newest first. */
  'journal.unresolved': { input: z.undefined(), output: z.array(unresolvedAction) },
  /**
   * Runs the lookup that settles an unknown outcome (today: a beneficiary create, looked up by the id the desk
   * found at the service) and journals the answer.
   */
  'journal.checkStatus': {
    input: z
      .object({ attemptSeq: z.number().int().positive(), beneficiaryId: z.string().trim().min(1).max(64) })
      .strict(),
    output: z.object({ check: journalEntry, beneficiary: cachedBeneficiary.nullable() }),
  },
  'journal.periods': {
    input: z.object({ from: calendarDate, to: calendarDate }).strict().optional(),
    output: z.array(closedPeriod),
  },
  'journal.closePeriod': { input: closeRange, output: closedPeriod },
  /** On a desk, reopening needs an approver and a reason; alone, the reason is optional. */
  'journal.reopenPeriod': {
    input: periodId.extend({ reason: z.string().trim().min(1).max(500).optional() }).strict(),
    output: z.object({ reopened: z.literal(true) }),
  },
  'journal.acknowledgePeriod': { input: periodId, output: closedPeriod },
  'journal.periodDiff': { input: periodId, output: periodDiff },
} satisfies DomainSchemas<'journal'>;
