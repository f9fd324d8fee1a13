/**
 * Bulk payout checks: a list of payout ids as a desk pastes it (from a spreadsheet column, an e-mail, a chat),
 * read into distinct ids, then checked together. Each id of a run ends as one item: checked (the service
 * answered with the payout), refused (it answered with a reason: not found), failed (no answer: the reason in
 * the user's words), or queued (an advance check waiting for the service to be reachable again).
 */
import { z } from 'zod';
import { PAYOUT_LOOKUP_MODES, payoutLookup } from './payouts';

/** The most ids one run takes: a morning list is tens, a reconciliation list hundreds. */
export const MAX_CHECK_IDS = 2_000;
/** As the single lookup: ids longer than this are not ids. */
export const MAX_PAYOUT_ID_LENGTH = 64;

/** Spaces (any Unicode space, including the no-break space mail clients insert), tabs, new lines, commas, semicolons, pipes. */
const SEPARATORS = /[\s,;|]+/u;
/** What gateway and merchant payout ids are made of. */
const ID = /^[A-Za-z0-9_\-.:/]+$/;
/** The longest payout id a gateway issues or takes (Cashfree's merchant transfer ids; RazorpayX's are 19). */
export const LONGEST_GATEWAY_ID = 40;

/**
 * Why a piece made of id characters still does not look like a payout id, or null when it does (the rules are in
 * docs/design/not-shown.md, "Payout ids"). Such a piece is left out unless the person sends it deliberately.
 */
export function payoutIdDoubt(id: string): string | null {
  if (/^TRF/i.test(id) && !/^TRF\d{12}$/.test(id)) {
    return "starts like the service's payout ids but is not TRF and 12 digits";
  }
  if (/^pout_/i.test(id) && !/^pout_[A-Za-z0-9]{14}$/.test(id)) {
    return 'starts like a RazorpayX payout id but is not pout_ and 14 letters or digits';
  }
  if (!/\d/.test(id)) return 'has no digits: a word, not a payout id';
  if (/^\d+$/.test(id)) return 'is only digits: a UTR, an account number or an amount, not a payout id';
  if (id.length > LONGEST_GATEWAY_ID)
    return `is longer than the ${LONGEST_GATEWAY_ID} characters of any gateway's payout id`;
  return null;
}
/** Quotes a spreadsheet or a CSV puts around a cell. */
const QUOTES = /^["'`“”‘’]+|["'`“”‘’]+$/gu;

export interface ParsedPayoutIds {
  /** Distinct ids in the order first given. */
  ids: string[];
  /** Ids given more than once (each listed once), kept once in `ids`. */
  duplicates: string[];
  /** Pieces that cannot be payout ids, with why: never sent. */
  invalid: { text: string; reason: string }[];
  /** Distinct pieces of id characters that do not look like payout ids, with why: sent only when chosen. */
  questionable: { text: string; reason: string }[];
}

/** Reads a pasted or imported list of payout ids; pure, so the form, main and the CLI read a list alike. */
export function parsePayoutIds(text: string): ParsedPayoutIds {
  const ids: string[] = [];
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  const invalid: ParsedPayoutIds['invalid'] = [];
  const questionable: ParsedPayoutIds['questionable'] = [];
  for (const piece of text.split(SEPARATORS)) {
    const id = piece.replace(QUOTES, '');
    if (id === '') continue;
    if (id.length > MAX_PAYOUT_ID_LENGTH) {
      invalid.push({ text: cut(id), reason: `is longer than ${MAX_PAYOUT_ID_LENGTH} characters` });
    } else if (!ID.test(id)) {
      const bad = [...new Set([...id].filter((c) => !ID.test(c)))].join(' ');
      invalid.push({ text: id, reason: `has characters a payout id does not: ${bad}` });
    } else if (seen.has(id)) {
      duplicates.add(id);
    } else {
      seen.add(id);
      const doubt = payoutIdDoubt(id);
      if (doubt === null) ids.push(id);
      else questionable.push({ text: id, reason: doubt });
    }
  }
  return { ids, duplicates: [...duplicates], invalid, questionable };
}

const cut = (s: string) => (s.length > 40 ? `${s.slice(0, 40)}…` : s);

/** True when a lookup field holds a list rather than one id: the single lookup hands it to the bulk check. */
export function looksLikeIdList(text: string): boolean {
  const { ids, duplicates, invalid, questionable } = parsePayoutIds(text);
  return ids.length + invalid.length + questionable.length > 1 || duplicates.length > 0;
}

const payoutId = z.string().min(1).max(MAX_PAYOUT_ID_LENGTH).regex(ID, 'must be a payout id');

export const payoutCheckRequest = z
  .object({
    ids: z
      .array(payoutId)
      .min(1, 'give at least one payout id')
      .max(MAX_CHECK_IDS, `at most ${MAX_CHECK_IDS} payout ids in one check`),
    /** Advance (a hard pull from the gateway) is asked for per run, never remembered. */
    mode: z.enum(PAYOUT_LOOKUP_MODES),
  })
  .strict();
export type PayoutCheckRequest = z.input<typeof payoutCheckRequest>;

export const PAYOUT_CHECK_OUTCOMES = ['pending', 'checked', 'refused', 'failed', 'queued'] as const;
export type PayoutCheckOutcome = (typeof PAYOUT_CHECK_OUTCOMES)[number];

export const payoutCheckItem = z.object({
  position: z.number().int().nonnegative(),
  payoutId: z.string(),
  outcome: z.enum(PAYOUT_CHECK_OUTCOMES),
  /** The recorded lookup (checked or refused). */
  lookup: payoutLookup.nullable(),
  /** Why there is no answer (failed), or what the item waits for (queued). */
  error: z.string().nullable(),
});
export type PayoutCheckItem = z.output<typeof payoutCheckItem>;

export const payoutCheckRun = z.object({
  id: z.number().int().positive(),
  mode: z.enum(PAYOUT_LOOKUP_MODES),
  /** ISO UTC. */
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  items: z.array(payoutCheckItem),
  counts: z.record(z.enum(PAYOUT_CHECK_OUTCOMES), z.number().int().nonnegative()),
});
export type PayoutCheckRun = z.output<typeof payoutCheckRun>;

export function countOutcomes(items: readonly { outcome: PayoutCheckOutcome }[]): PayoutCheckRun['counts'] {
  const counts = Object.fromEntries(PAYOUT_CHECK_OUTCOMES.map((o) => [o, 0])) as PayoutCheckRun['counts'];
  for (const i of items) counts[i.outcome] += 1;
  return counts;
}

/** Progress of a run, pushed while it checks (and when queued advance checks run later). */
export const payoutCheckProgress = z.object({
  runId: z.number().int().positive(),
  profileId: z.string(),
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  finished: z.boolean(),
});
export type PayoutCheckProgress = z.output<typeof payoutCheckProgress>;
