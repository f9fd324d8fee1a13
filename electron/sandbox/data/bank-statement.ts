/**
 * The bank statement that matches the sandbox's settlement batches: what the merchant's collection account would
 * show for a date range, in the layout Indian banks export (HDFC's columns: Date, Narration, Chq./Ref.No.,
 * Value Dt, Withdrawal Amt., Deposit Amt., Closing Balance).
 *
 * One credit per batch (date, gateway, cycle) for the sum of its records' settled amounts as served now, on the
 * batch's date, its narration naming the rail, the gateway's bank IFSC, the gateway and the batch's UTR (which the
 * bank knows even while the API still shows ""). Around them, unrelated debits and credits (vendor payments, ACH
 * debits, card spends, cash deposits, interest). And a configurable set of discrepancies, chosen deterministically
 * from the seed and the range among the batches whose UTR the API shows:
 *   missing  a batch with no credit at all
 *   short    a credit short of its batch by 1-9 rupees
 *   split    a batch paid as two credits that carry no UTR (the bank's "part" payments), summing exactly
 *   orphan   a gateway credit with a UTR no batch has
 * `truth` says which is which, so a test can expect every state exactly.
 */
import { formatMinor } from '../../../shared/money';
import { addDays } from '../../../shared/time';
import { Rng, dayNumber, hash32 } from '../random';
import { GATEWAYS } from './catalog';
import type { SettlementSource } from './settlements';

export interface StatementLine {
  /** `YYYY-MM-DD`. */
  date: string;
  narration: string;
  reference: string;
  valueDate: string;
  /** Paise, >= 0; one of the two is 0. */
  withdrawal: number;
  deposit: number;
  balance: number;
}

export interface Discrepancies {
  missing: number;
  short: number;
  split: number;
  orphan: number;
}

export const DEFAULT_DISCREPANCIES: Discrepancies = { missing: 1, short: 1, split: 1, orphan: 1 };

export interface BatchTruth {
  date: string;
  pg: string;
  settlement_date: string;
  /** The UTR the bank knows; the API may show "" for it (pending). */
  utr: string;
  pending: boolean;
  /** Net settled of the batch, paise. */
  amount: number;
  kind: 'credited' | 'missing' | 'short' | 'split';
  /** Paise credited less the batch (negative when short). */
  difference: number;
  /** The references of the credits that pay it. */
  references: string[];
}

export interface Statement {
  account: { name: string; number: string; ifsc: string };
  from: string;
  to: string;
  lines: StatementLine[];
  truth: {
    batches: BatchTruth[];
    /** References of the credits that belong to no batch: orphans and the unrelated credits. */
    orphanCredits: string[];
    unrelatedCredits: string[];
  };
}

/** The bank each gateway's settlements come from, as the credit's narration names it. */
const REMITTERS: Readonly<Record<string, { ifsc: string; name: string }>> = {
  razorpay: { ifsc: 'UTIB0000100', name: 'RAZORPAY SOFTWARE PVT LTD' },
  cashfree: { ifsc: 'YESB0000262', name: 'CASHFREE PAYMENTS INDIA PVT LTD' },
  payu: { ifsc: 'HDFC0000240', name: 'PAYU PAYMENTS PVT LTD' },
  easebuzz: { ifsc: 'ICIC0000104', name: 'EASEBUZZ PVT LTD' },
};

export const SANDBOX_ACCOUNT = { name: 'HDFC current account', number: '50200012345678', ifsc: 'HDFC0000123' };
const OPENING_BALANCE = 25_00_000_00;
/** RTGS is for Rs 2 lakh and more. */
const RTGS_FLOOR = 2_00_000_00;

type Rail = 'NEFT' | 'RTGS' | 'IMPS' | 'UPI';

function narration(rail: Rail, pg: string, utr: string): string {
  const r = REMITTERS[pg] ?? { ifsc: 'HDFC0000001', name: pg.toUpperCase() };
  switch (rail) {
    case 'NEFT':
    case 'RTGS':
      return `${rail} CR-${r.ifsc}-${r.name}-${utr}`;
    case 'IMPS':
      return `IMPS-${utr}-${r.name}-${r.ifsc.slice(0, 4)}-XXXXXXXX4821-SETTLEMENT`;
    case 'UPI':
      return `UPI-${r.name}-${pg}.settle@${r.ifsc.slice(0, 4).toLowerCase()}-${r.ifsc}-${utr}-SETTLEMENT`;
  }
}

interface Credit {
  date: string;
  order: number;
  narration: string;
  reference: string;
  amount: number;
}

/**
 * The statement for [from, to] (dates the source serves). Costs one pass over every record of the range, as the
 * batch sums need: a test or a CLI run, never a request path.
 */
export function buildStatement(
  source: SettlementSource,
  from: string,
  to: string,
  discrepancies: Discrepancies = DEFAULT_DISCREPANCIES,
): Statement {
  const seed = source.seed;
  const batches: (BatchTruth & { order: number; rail: Rail })[] = [];
  const entries: Credit[] = [];
  const unrelatedCredits: string[] = [];
  for (let date = from; date <= to; date = addDays(date, 1)) {
    const day = dayNumber(date);
    const sums = new Map<number, number>();
    for (let i = 0; i < source.perDay; i++) {
      const rec = source.record(date, i);
      if (!rec) continue;
      const b = source.batchOf(date, i);
      const key = b.gatewayIndex * 8 + b.cycle;
      sums.set(key, (sums.get(key) ?? 0) + rec.settled_amount);
    }
    source.gateways.forEach((pg, gi) => {
      for (let c = 0; c < source.cycles(day, gi); c++) {
        const amount = sums.get(gi * 8 + c) ?? 0;
        if (amount <= 0) continue;
        const utr = source.batchUtr(day, gi, c);
        const rng = new Rng(hash32(seed, day, gi * 8 + c, 0x7a11));
        const u = rng.next();
        const rail: Rail = amount >= RTGS_FLOOR && u < 0.5 ? 'RTGS' : u < 0.7 ? 'NEFT' : u < 0.9 ? 'IMPS' : 'UPI';
        batches.push({
          date,
          pg,
          settlement_date: source.batchTime(day, gi, c),
          utr,
          pending: source.batchPending(date, gi, c),
          amount,
          kind: 'credited',
          difference: 0,
          references: [],
          order: c * 10 + gi,
          rail,
        });
      }
    });
    entries.push(...unrelated(seed, day, date, unrelatedCredits));
  }

  // Discrepancies go to batches whose UTR the API shows, each batch at most one, chosen by the seed and range.
  const rng = new Rng(hash32(seed, dayNumber(from), dayNumber(to), 0xd15c));
  const candidates = batches.filter((b) => !b.pending);
  const take = (kind: BatchTruth['kind'], count: number) => {
    for (let k = 0; k < count && candidates.length > 0; k++) {
      const [b] = candidates.splice(rng.int(0, candidates.length - 1), 1);
      b!.kind = kind;
    }
  };
  take('missing', discrepancies.missing);
  take('short', discrepancies.short);
  take('split', discrepancies.split);

  let refSerial = hash32(seed, dayNumber(from), 0x4ef) % 1_000_000;
  const bankRef = () => `0000${String(++refSerial).padStart(12, '0')}`;
  for (const b of batches) {
    const reference = b.rail === 'NEFT' || b.rail === 'UPI' ? bankRef() : b.utr;
    const text = narration(b.rail, b.pg, b.utr);
    if (b.kind === 'missing') continue;
    if (b.kind === 'split') {
      const first = Math.floor(b.amount * (0.3 + 0.4 * rng.next()));
      const r = REMITTERS[b.pg]!;
      for (const [part, amount] of [
        [1, first],
        [2, b.amount - first],
      ] as const) {
        const ref = bankRef();
        b.references.push(ref);
        entries.push({
          date: b.date,
          order: b.order,
          narration: `NEFT CR-${r.ifsc}-${r.name}-SETTLEMENT PART ${part} OF 2`,
          reference: ref,
          amount,
        });
      }
      continue;
    }
    if (b.kind === 'short') b.difference = -100 * rng.int(1, 9);
    b.references.push(reference);
    entries.push({ date: b.date, order: b.order, narration: text, reference, amount: b.amount + b.difference });
  }

  const orphanCredits: string[] = [];
  for (let k = 0; k < discrepancies.orphan; k++) {
    const days = dayNumber(to) - dayNumber(from);
    const date = addDays(from, rng.int(0, days));
    const pg = rng.pick(GATEWAYS).code;
    const utr = rng.digits(12);
    orphanCredits.push(utr);
    entries.push({
      date,
      order: 5,
      narration: narration('NEFT', pg, utr),
      reference: utr,
      amount: rng.int(5_000, 90_000) * 100 + rng.int(0, 99),
    });
  }

  entries.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.order - b.order));
  let balance = OPENING_BALANCE;
  const lines = entries.map((e): StatementLine => {
    balance += e.amount;
    return {
      date: e.date,
      narration: e.narration,
      reference: e.reference,
      valueDate: e.date,
      withdrawal: e.amount < 0 ? -e.amount : 0,
      deposit: e.amount > 0 ? e.amount : 0,
      balance,
    };
  });
  return {
    account: SANDBOX_ACCOUNT,
    from,
    to,
    lines,
    truth: {
      batches: batches.map((b) => ({
        date: b.date,
        pg: b.pg,
        settlement_date: b.settlement_date,
        utr: b.utr,
        pending: b.pending,
        amount: b.amount,
        kind: b.kind,
        difference: b.difference,
        references: b.references,
      })),
      orphanCredits,
      unrelatedCredits,
    },
  };
}

/** A day's entries that have nothing to do with settlements: 1-4 of them, mostly debits. */
function unrelated(seed: number, day: number, date: string, creditRefs: string[]): Credit[] {
  const rng = new Rng(hash32(seed, day, 0xba4c));
  const out: Credit[] = [];
  const n = rng.int(1, 4);
  for (let k = 0; k < n; k++) {
    const kind = rng.int(0, 5);
    const rupees = rng.int(200, 75_000) * 100 + rng.int(0, 99);
    const ref = `${rng.digits(6)}`;
    const at = { date, order: 100 + k };
    switch (kind) {
      case 0:
        out.push({
          ...at,
          narration: `NEFT DR-ICIC0000045-ACME PACKAGING PVT LTD-NETBANK, MUM-N${rng.digits(15)}-VENDOR`,
          reference: `N${rng.digits(15)}`,
          amount: -rupees,
        });
        break;
      case 1:
        out.push({
          ...at,
          narration: `ACH D- TP ACH HDFCERGO-${rng.digits(7)}`,
          reference: `0000${rng.digits(12)}`,
          amount: -rupees,
        });
        break;
      case 2:
        out.push({ ...at, narration: `POS 512345XXXXXX1234 AMAZON WEB SERVICES`, reference: ref, amount: -rupees });
        break;
      case 3:
        out.push({ ...at, narration: `CHQ PAID-MICR CTS-MU-OFFICE RENT`, reference: ref, amount: -rupees });
        break;
      case 4:
        creditRefs.push(ref);
        out.push({ ...at, narration: 'CASH DEPOSIT BY - SELF - ANDHERI EAST BRANCH', reference: ref, amount: rupees });
        break;
      default:
        creditRefs.push(ref);
        out.push({
          ...at,
          narration: `INT.PD ${date}`,
          reference: ref,
          amount: rng.int(1, 900) * 100 + rng.int(0, 99),
        });
    }
  }
  return out;
}

/** `dd/mm/yy`, as HDFC writes a statement's dates. */
function shortDate(date: string): string {
  return `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(2, 4)}`;
}

/** A blank cell for no amount, as banks leave the other column of a line empty. */
function rupees(paise: number): string {
  return paise === 0 ? '' : formatMinor(paise);
}

/** The number a spreadsheet holds for the exact decimal text (the nearest double, never arithmetic on one). */
function rupeeNumber(paise: number): number | null {
  return paise === 0 ? null : Number(formatMinor(paise));
}

export const STATEMENT_HEADERS = [
  'Date',
  'Narration',
  'Chq./Ref.No.',
  'Value Dt',
  'Withdrawal Amt.',
  'Deposit Amt.',
  'Closing Balance',
] as const;

/** The statement as the bank's CSV download: a header line, then one line per entry, CRLF. */
export function statementCsv(s: Statement): string {
  const quote = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const rows = s.lines.map((l) =>
    [
      shortDate(l.date),
      l.narration,
      l.reference,
      shortDate(l.valueDate),
      rupees(l.withdrawal),
      rupees(l.deposit),
      rupees(l.balance),
    ]
      .map(quote)
      .join(','),
  );
  return [STATEMENT_HEADERS.join(','), ...rows].join('\r\n') + '\r\n';
}

/**
 * The statement as the bank's Excel download: a few lines about the account before the header row (as HDFC's
 * has), dates as text, amounts as numbers in rupees.
 */
export async function statementXlsx(s: Statement): Promise<Buffer> {
  // Loaded here, not with the module: every sandbox loads this module and few ask for a workbook (sheet-reader.ts).
  const { default: Excel } = await import('exceljs');
  const book = new Excel.Workbook();
  const sheet = book.addWorksheet('Statement');
  sheet.addRow(['HDFC BANK Ltd.']);
  sheet.addRow([`Account Name : ${s.account.name}`]);
  sheet.addRow([`Account No : ${s.account.number}`, '', `IFSC : ${s.account.ifsc}`]);
  sheet.addRow([`Statement From : ${shortDate(s.from)} To : ${shortDate(s.to)}`]);
  sheet.addRow([]);
  sheet.addRow([...STATEMENT_HEADERS]);
  sheet.addRow(['********', '********', '********', '********', '********', '********', '********']);
  for (const l of s.lines) {
    const row = sheet.addRow([
      shortDate(l.date),
      l.narration,
      l.reference,
      shortDate(l.valueDate),
      rupeeNumber(l.withdrawal),
      rupeeNumber(l.deposit),
      Number(formatMinor(l.balance)),
    ]);
    for (const c of [5, 6, 7]) row.getCell(c).numFmt = '#,##0.00';
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}
