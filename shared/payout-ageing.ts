/**
 * How old a payout is and when it should have landed: from when the console first saw it, by its method's
 * expected turnaround. IMPS and UPI credit in minutes; RTGS in minutes too (real time, gross); NEFT settles in
 * half-hourly batches, so a NEFT payout is due a set time after the first batch at or after it was seen — which
 * may be the next day's first batch when the desk configures windows that stop overnight. All IST, no DST.
 * Pure: the clock is a parameter.
 */
import { z } from 'zod';
import { isPendingTransfer } from './payouts';

const IST_OFFSET_MS = 330 * 60_000;
const DAY_MS = 86_400_000;
const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

const minutes = (max: number) => z.number().int('must be whole minutes').min(1, 'must be at least 1 minute').max(max);

export const turnaroundSettings = z
  .object({
    impsMinutes: minutes(7 * 24 * 60),
    upiMinutes: minutes(7 * 24 * 60),
    rtgsMinutes: minutes(7 * 24 * 60),
    /** NEFT batch times, IST "HH:MM", ascending. */
    neftBatches: z
      .array(z.string().regex(HHMM, 'must be a time HH:MM (24-hour, IST)'))
      .min(1, 'give at least one NEFT batch time')
      .max(96)
      .refine((b) => b.every((t, i) => i === 0 || t > b[i - 1]!), 'must be in order, each time once'),
    /** How long after its batch a NEFT credit is due. */
    neftCreditMinutes: minutes(3 * 24 * 60),
  })
  .strict();
export type TurnaroundSettings = z.output<typeof turnaroundSettings>;

/** NEFT runs 48 half-hourly batches a day (00:30 to 24:00, the last written 00:00); credit within two hours (RBI). */
export const DEFAULT_TURNAROUND: TurnaroundSettings = {
  impsMinutes: 30,
  upiMinutes: 30,
  rtgsMinutes: 30,
  neftBatches: Array.from({ length: 48 }, (_, i) => {
    const m = i * 30;
    return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  }),
  neftCreditMinutes: 120,
};

const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** The first NEFT batch at or after `atMs` (epoch ms), as epoch ms. */
export function nextNeftBatch(atMs: number, batches: readonly string[]): number {
  const ist = atMs + IST_OFFSET_MS;
  const dayStart = Math.floor(ist / DAY_MS) * DAY_MS;
  const sorted = batches.map(toMinutes).sort((a, b) => a - b);
  const today = sorted.find((m) => dayStart + m * 60_000 >= ist);
  const batchIst = today !== undefined ? dayStart + today * 60_000 : dayStart + DAY_MS + sorted[0]! * 60_000;
  return batchIst - IST_OFFSET_MS;
}

/** When a payout by `method` first seen at `firstSeenAt` (ISO UTC) is due (ISO UTC); null for a method we cannot time. */
export function expectedBy(
  method: string | null | undefined,
  firstSeenAt: string,
  s: TurnaroundSettings,
): string | null {
  const seen = Date.parse(firstSeenAt);
  if (Number.isNaN(seen)) return null;
  const after = (m: number) => new Date(seen + m * 60_000).toISOString();
  switch ((method ?? '').trim().toLowerCase()) {
    case 'imps':
      return after(s.impsMinutes);
    case 'upi':
      return after(s.upiMinutes);
    case 'rtgs':
      return after(s.rtgsMinutes);
    case 'neft':
      return new Date(nextNeftBatch(seen, s.neftBatches) + s.neftCreditMinutes * 60_000).toISOString();
    default:
      return null;
  }
}

export interface PayoutAge {
  firstSeenAt: string | null;
  /** Milliseconds since first seen; null while never seen. */
  ageMs: number | null;
  expectedBy: string | null;
  /** Still pending past its expected time. */
  overdue: boolean;
}

/** A lookup's ageing as of `nowMs`. */
export function payoutAge(
  l: { firstSeenAt: string | null; transferStatus: string | null; payout: { method?: string } | null },
  nowMs: number,
  s: TurnaroundSettings,
): PayoutAge {
  if (l.firstSeenAt === null) return { firstSeenAt: null, ageMs: null, expectedBy: null, overdue: false };
  const due = expectedBy(l.payout?.method, l.firstSeenAt, s);
  return {
    firstSeenAt: l.firstSeenAt,
    ageMs: Math.max(0, nowMs - Date.parse(l.firstSeenAt)),
    expectedBy: due,
    overdue: due !== null && isPendingTransfer(l.transferStatus) && nowMs > Date.parse(due),
  };
}

/** An age in words a desk reads at a glance: "45 min", "3 h 05 min", "2 d 4 h". */
export function formatAge(ms: number): string {
  const m = Math.floor(ms / 60_000);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h} h ${String(m % 60).padStart(2, '0')} min`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}

/** The desk's payout settings: turnaround per method, and whether the watch list may use advance checks. */
export const payoutSettings = z
  .object({
    turnaround: turnaroundSettings,
    /** Off by default: advance checks pull from the gateways, which rate-limit. */
    watchAdvance: z.boolean(),
  })
  .strict();
export type PayoutSettings = z.output<typeof payoutSettings>;
export const DEFAULT_PAYOUT_SETTINGS: PayoutSettings = { turnaround: DEFAULT_TURNAROUND, watchAdvance: false };
