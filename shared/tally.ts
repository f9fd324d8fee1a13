/**
 * The Tally ledgers a settlement voucher posts to, named once per profile (Settings, or `export tally`'s flags):
 * Tally matches a voucher's ledger by its exact name, so the console never guesses one.
 */
import { z } from 'zod';

export const TALLY_LEDGER_ROLES = [
  'bank',
  'receivable',
  'fees',
  'cgst',
  'sgst',
  'igst',
  'subvention',
  'rounding',
] as const;
export type TallyLedgerRole = (typeof TALLY_LEDGER_ROLES)[number];

/** What each ledger takes, as Settings and the refusals name it. */
export const TALLY_LEDGER_LABELS: Readonly<Record<TallyLedgerRole, string>> = {
  bank: 'Bank (debited with the net settled)',
  receivable: "Gateway's receivable (credited with the gross)",
  fees: 'Gateway fees (debited)',
  cgst: 'CGST on fees (debited)',
  sgst: 'SGST on fees (debited)',
  igst: 'IGST on fees (debited)',
  subvention: 'Subvention (credited)',
  rounding: 'Rounding off (up to ₹1.00 a batch; optional)',
};

/**
 * The most a batch's figures may be out by (paise, either way) and still be posted with the difference on the
 * rounding-off ledger: gateways round each record's fees and GST to the paisa, so a batch's sums can miss its net by
 * a few paise; past a rupee it is an error in the gateway's records, which the accountant must see, not absorb.
 */
export const TALLY_ROUNDING_LIMIT = 100;

/** Bounded like every name the console stores; Tally compares the name as written. */
const ledgerName = z.string().trim().min(1).max(200);

export const tallyLedgers = z
  .object(
    Object.fromEntries(TALLY_LEDGER_ROLES.map((r) => [r, ledgerName.optional()])) as Record<
      TallyLedgerRole,
      z.ZodOptional<typeof ledgerName>
    >,
  )
  .strict();
export type TallyLedgers = Partial<Record<TallyLedgerRole, string>>;
