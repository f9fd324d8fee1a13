/**
 * Schemas of the `approvals.*` channels: the desk's approval policy, its proposals and every step on them, for the
 * active profile. In local mode there are none (`approvals.policy` says so); the actions are sent as confirmed.
 */
import { z } from 'zod';
import { APPROVAL_SCOPES, approvalCounts, approvalPolicy, proposal, proposalReview, typedReason } from '../approvals';
import type { DomainSchemas } from './contract';

const id = z.string().trim().min(1, 'must not be empty').max(64);

export const approvalsChannels = {
  /** Local mode, or the desk's policy (its own or the safe default) that the forms label their buttons by. */
  'approvals.policy': {
    input: z.object({}).strict(),
    output: z.discriminatedUnion('mode', [
      z.object({ mode: z.literal('local') }),
      z.object({
        mode: z.literal('desk'),
        policy: approvalPolicy,
        version: z.number().int(),
        /** False on a console kept without the API secret: it proposes and reviews; approving and sending are elsewhere. */
        holdsSecret: z.boolean(),
      }),
    ]),
  },
  /** An admin's: the new policy, journaled on the desk. */
  'approvals.setPolicy': {
    input: z.object({ policy: approvalPolicy }).strict(),
    output: z.object({ journalSeq: z.number().int() }),
  },
  'approvals.list': {
    input: z.object({ scope: z.enum(APPROVAL_SCOPES) }).strict(),
    output: z.array(proposal),
  },
  /** The status bar's figures; null in local mode. */
  'approvals.counts': { input: z.object({}).strict(), output: approvalCounts.nullable() },
  /** The proposal with what the console fetched again to check it, and whether this person may approve it. */
  'approvals.review': { input: z.object({ id }).strict(), output: proposalReview },
  /** Approves; the last approval sends the request from this console and answers with its outcome. */
  'approvals.approve': { input: z.object({ id }).strict(), output: proposal },
  'approvals.reject': { input: z.object({ id, reason: typedReason }).strict(), output: proposal },
  'approvals.withdraw': { input: z.object({ id }).strict(), output: proposal },
  /** Settles an outcome that is unknown, from the sending console's journal. */
  'approvals.checkStatus': { input: z.object({ id }).strict(), output: proposal },
  /** What the person saw in the service's own records for an outcome no check can settle. */
  'approvals.settle': {
    input: z.object({ id, succeeded: z.boolean(), note: typedReason }).strict(),
    output: proposal,
  },
} satisfies DomainSchemas<'approvals'>;
