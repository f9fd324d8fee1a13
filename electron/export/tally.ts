/**
 * A period's bank credits as Tally Prime import XML (docs/design/not-shown.md, "Tally vouchers"): one Receipt voucher per batch whose
 * credit reached the bank account and equals its net, with the bank debited the net settled, the gateway's fees
 * and each GST component debited, subvention credited and the gateway's receivable credited the gross. Amounts are
 * integer paise until they are written, as decimal text with two places; Tally's sign convention is a debit as a
 * negative AMOUNT with ISDEEMEDPOSITIVE Yes, a credit as a positive one with No, so every voucher's amounts sum to
 * zero. Signed batch figures (refunds netted out) simply move a line to the other side.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { batchKeyText, type BatchKey, type ReconReport } from '../../shared/bank-matching';
import { formatCalendarDate, formatCount } from '../../shared/format';
import { formatMinor, formatMoney } from '../../shared/money';
import { TALLY_LEDGER_LABELS, TALLY_ROUNDING_LIMIT, type TallyLedgerRole, type TallyLedgers } from '../../shared/tally';
import type { BatchRow } from '../cache/reconciliation';
import { openAtomicFile } from './atomic-file';

export interface TallyLine {
  role: TallyLedgerRole;
  /** Paise, debit positive: written as Tally's AMOUNT negated. */
  debit: number;
}

export interface TallyVoucher {
  batch: BatchKey;
  number: string;
  /** The bank credit's date (the last one's, for a batch paid as several credits), YYYY-MM-DD. */
  date: string;
  narration: string;
  lines: TallyLine[];
}

export interface TallyLeftOut {
  batch: BatchKey;
  reason: string;
}

export interface TallyPlan {
  vouchers: TallyVoucher[];
  leftOut: TallyLeftOut[];
}

export type Gst = { cgst: number; sgst: number; igst: number };

export class TallyLedgerError extends Error {
  override name = 'TallyLedgerError';
  /** The person's to fix in Settings, not a failure of the console: crosses IPC as its own code. */
  readonly code = 'TALLY_LEDGER_MISSING';
}

/** Stable across re-exports (it is the batch's identity), unique per batch, and short enough for Tally's field. */
export function voucherNumber(batch: BatchKey): string {
  return `PC-${createHash('sha256').update(batchKeyText(batch)).digest('hex').slice(0, 12).toUpperCase()}`;
}

/**
 * The vouchers of the report's batches, from the cache's batch figures (`figures`, `gst`, by batchKeyText). A batch
 * without a credit, or whose credits differ from its net, is left out with its reason: a receipt records money the
 * bank statement shows, and a difference is the desk's to explain before it is posted. A batch whose own figures do
 * not add up (net against gross, fees, tax and subvention; tax against its GST parts) is posted with the difference
 * on the rounding-off ledger when the person named one (`rounding`) and it is within TALLY_ROUNDING_LIMIT, and is
 * left out otherwise.
 */
export function planTally(
  report: ReconReport,
  figures: Map<string, BatchRow>,
  gst: Map<string, Gst>,
  rounding = false,
): TallyPlan {
  const creditDates = new Map(report.credits.map((c) => [c.id, c.date]));
  const vouchers: TallyVoucher[] = [];
  const leftOut: TallyLeftOut[] = [];
  for (const b of report.batches) {
    const batch: BatchKey = { date: b.date, pg: b.pg, utr: b.utr, settlementDate: b.settlementDate };
    const key = batchKeyText(batch);
    const row = figures.get(key);
    const parts = gst.get(key) ?? { cgst: 0, sgst: 0, igst: 0 };
    const leave = (reason: string) => leftOut.push({ batch, reason });
    if (b.matchId === null || b.lineIds.length === 0) {
      leave('No bank credit is matched to it yet; it is posted once its credit is.');
    } else if (b.difference !== 0) {
      leave(`Its credits differ from its net by ${formatMoney(b.difference ?? 0)}; post it by hand with the reason.`);
    } else if (!row) {
      leave('Its records are not in this cache; sync the period first.');
    } else if (!rounds(row, parts, rounding)) {
      const net = row.amount - row.fees - row.taxes + row.subvention;
      const hint =
        Math.abs(outBy(row, parts)) <= TALLY_ROUNDING_LIMIT && !rounding
          ? ` Or name a rounding-off ledger in Settings (--ledger-rounding) to post up to ${formatMoney(TALLY_ROUNDING_LIMIT)} there.`
          : '';
      leave(
        (net !== row.settled
          ? `Its net (${formatMoney(row.settled)}) is not its gross less fees and tax plus subvention (${formatMoney(net)})`
          : `Its service tax (${formatMoney(row.taxes)}) differs from CGST + SGST + IGST ` +
            `(${formatMoney(parts.cgst + parts.sgst + parts.igst)})`) +
          `; the gateway's records need correcting first.${hint}`,
      );
    } else {
      const dates = b.lineIds.map((id) => creditDates.get(id)).filter((d): d is string => d !== undefined);
      const date = dates.reduce((a, d) => (d > a ? d : a), b.date);
      vouchers.push({
        batch,
        number: voucherNumber(batch),
        date,
        narration:
          `${b.pg} settlement, UTR ${b.utr === '' ? '(none given)' : b.utr}, batch of ${formatCalendarDate(b.date)}, ` +
          `${formatCount(row.records)} records, credited ${[...new Set(dates)].sort().map(formatCalendarDate).join(', ')}`,
        lines: linesOf(row, parts),
      });
    }
  }
  return { vouchers, leftOut };
}

/**
 * Gross = net + fees + taxes − subvention (the interface's formula), so these debits and credits sum to zero when the
 * batch's figures add up; where they miss by a few paise the rounding-off line takes the difference.
 */
function linesOf(row: BatchRow, gst: Gst): TallyLine[] {
  const lines: TallyLine[] = [
    { role: 'bank', debit: row.settled },
    { role: 'fees', debit: row.fees },
    { role: 'cgst', debit: gst.cgst },
    { role: 'sgst', debit: gst.sgst },
    { role: 'igst', debit: gst.igst },
    { role: 'subvention', debit: -row.subvention },
    { role: 'receivable', debit: -row.amount },
  ];
  return [...lines, { role: 'rounding' as const, debit: -outBy(row, gst) }].filter((l) => l.debit !== 0);
}

/** By how much the batch's lines would not balance without a rounding-off line (debits over credits, paise). */
const outBy = (row: BatchRow, gst: Gst) =>
  row.settled + row.fees + gst.cgst + gst.sgst + gst.igst - row.subvention - row.amount;

/** Whether the batch can be posted: its figures add up, or miss by no more than rounding may take. */
const rounds = (row: BatchRow, gst: Gst, rounding: boolean) =>
  (row.amount - row.fees - row.taxes + row.subvention === row.settled &&
    gst.cgst + gst.sgst + gst.igst === row.taxes) ||
  (rounding && Math.abs(outBy(row, gst)) <= TALLY_ROUNDING_LIMIT);

/** The ledgers the vouchers post to that have no name: the export is refused naming each. */
export function missingLedgers(plan: TallyPlan, ledgers: TallyLedgers): TallyLedgerRole[] {
  const used = new Set(plan.vouchers.flatMap((v) => v.lines.map((l) => l.role)));
  return [...used].filter((r) => !ledgers[r]);
}

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};
/** XML 1.0 has no way to write most control characters, so they are dropped rather than make the file unreadable. */
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

export function xmlText(s: string): string {
  return s.replace(NOT_XML, '').replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** Paise as Tally's AMOUNT: decimal text with two places, a debit negative. */
export const tallyAmount = (debit: number): string => formatMinor(-debit);

function voucherXml(v: TallyVoucher, ledgers: TallyLedgers): string {
  const entries = v.lines.map((l) =>
    [
      '      <ALLLEDGERENTRIES.LIST>',
      `       <LEDGERNAME>${xmlText(ledgers[l.role]!)}</LEDGERNAME>`,
      `       <ISDEEMEDPOSITIVE>${l.debit > 0 ? 'Yes' : 'No'}</ISDEEMEDPOSITIVE>`,
      `       <AMOUNT>${tallyAmount(l.debit)}</AMOUNT>`,
      '      </ALLLEDGERENTRIES.LIST>',
    ].join('\n'),
  );
  const date = v.date.replaceAll('-', '');
  return [
    '    <TALLYMESSAGE xmlns:UDF="TallyUDF">',
    '     <VOUCHER VCHTYPE="Receipt" ACTION="Create" OBJVIEW="Accounting Voucher View">',
    `      <DATE>${date}</DATE>`,
    `      <EFFECTIVEDATE>${date}</EFFECTIVEDATE>`,
    '      <VOUCHERTYPENAME>Receipt</VOUCHERTYPENAME>',
    `      <VOUCHERNUMBER>${v.number}</VOUCHERNUMBER>`,
    `      <PARTYLEDGERNAME>${xmlText(ledgers.receivable!)}</PARTYLEDGERNAME>`,
    `      <NARRATION>${xmlText(v.narration)}</NARRATION>`,
    '      <PERSISTEDVIEW>Accounting Voucher View</PERSISTEDVIEW>',
    ...entries,
    '     </VOUCHER>',
    '    </TALLYMESSAGE>',
  ].join('\n');
}

/** The import file: Tally's Import Data envelope for the Vouchers report, one TALLYMESSAGE per voucher. */
export function tallyXml(plan: TallyPlan, ledgers: TallyLedgers): string {
  const missing = missingLedgers(plan, ledgers);
  if (missing.length > 0) {
    throw new TallyLedgerError(
      `Name the Tally ledger${missing.length === 1 ? '' : 's'} for ${missing.map((r) => TALLY_LEDGER_LABELS[r]).join('; ')} ` +
        'in Settings (or with export tally --ledger-… flags): the vouchers post to them.',
    );
  }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<ENVELOPE>',
    ' <HEADER>',
    '  <TALLYREQUEST>Import Data</TALLYREQUEST>',
    ' </HEADER>',
    ' <BODY>',
    '  <IMPORTDATA>',
    '   <REQUESTDESC>',
    '    <REPORTNAME>Vouchers</REPORTNAME>',
    '   </REQUESTDESC>',
    '   <REQUESTDATA>',
    ...plan.vouchers.map((v) => voucherXml(v, ledgers)),
    '   </REQUESTDATA>',
    '  </IMPORTDATA>',
    ' </BODY>',
    '</ENVELOPE>',
    '',
  ].join('\n');
}

/** Writes the file under a temporary name and renames it complete, like every export. */
export async function writeTally(path: string, plan: TallyPlan, ledgers: TallyLedgers): Promise<void> {
  const xml = tallyXml(plan, ledgers);
  const file = openAtomicFile(path);
  try {
    file.stream.end(xml, 'utf8');
    await once(file.stream, 'close');
    file.commit();
  } catch (e) {
    await file.discard();
    throw e;
  }
}
