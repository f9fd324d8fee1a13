/**
 * Payment tools as the console offers them: the payment-method listing for an amount, currency and gateway, grouped
 * for people; process order (seamless checkout) with the fields each method and code need; currency conversion with the rate kept as exact decimal text.
 */
import { z } from 'zod';
import { currencyCode } from './api/common';
import { processOrderRequest } from './api/orders';
import type { PaymentMethods } from './api/payment-info';
import { rupeesText } from './rupees';

/** What the desk asks the listing for: an amount in rupees (sent as paise), a currency, a gateway. */
export const methodsQuery = z
  .object({
    amount: rupeesText.optional(),
    currency: currencyCode.optional(),
    pg: z.string().trim().min(1).max(32).optional(),
  })
  .strict();
export type MethodsQuery = z.input<typeof methodsQuery>;

export interface BankOption {
  code: string;
  title: string;
  /** false: the bank is down now; null: the listing did not say. */
  healthy: boolean | null;
  favourite: boolean;
}

/** The listing's flags, in the document's order, with the words a desk reads. */
const METHOD_FLAGS = [
  ['intent', 'UPI intent'],
  ['wallet', 'Wallets'],
  ['emi', 'EMI'],
  ['scanAndPay', 'Scan and pay'],
  ['upiQr', 'UPI QR'],
  ['convenience_fee', 'Convenience fee'],
] as const;

export interface MethodGroups {
  /** Favourites first, then as listed. */
  netbanking: BankOption[];
  debitcard: { code: string; title: string }[];
  creditcard: { code: string; title: string }[];
  upi: { code: string; title: string }[];
  /** Each flag with its value: true, false, or null when the listing left it out; a non-boolean value is kept as text. */
  flags: { key: string; label: string; on: boolean | null; value: string | null }[];
  /** Section names in the listing's own priority order (lowest first); sections without a priority go last. */
  order: ('netbanking' | 'debitcard' | 'creditcard' | 'upi')[];
}

/** The listing grouped as the document describes it, in the listing's priority order. */
export function groupMethods(listing: PaymentMethods): MethodGroups {
  const netbanking = (listing.netbanking?.data ?? []).map((b) => ({
    code: b.code,
    title: b.title,
    healthy: b.health ?? null,
    favourite: b.favorite === true,
  }));
  netbanking.sort((a, b) => Number(b.favourite) - Number(a.favourite));
  const cards = (s: PaymentMethods['debitcard']) => (s?.data ?? []).map(({ code, title }) => ({ code, title }));
  const sections = ['netbanking', 'debitcard', 'creditcard', 'upi'] as const;
  const order = sections
    .filter((s) => listing[s] !== undefined)
    .sort((a, b) => (listing[a]?.priority ?? Infinity) - (listing[b]?.priority ?? Infinity));
  return {
    netbanking,
    debitcard: cards(listing.debitcard),
    creditcard: cards(listing.creditcard),
    upi: Object.entries(listing.upi?.data ?? {}).map(([code, title]) => ({ code, title })),
    flags: METHOD_FLAGS.map(([key, label]) => {
      const v = (listing as Record<string, unknown>)[key];
      return {
        key,
        label,
        on: typeof v === 'boolean' ? v : v === undefined || v === null ? null : true,
        value: v === undefined || v === null || typeof v === 'boolean' ? null : JSON.stringify(v),
      };
    }),
    order,
  };
}

export const PROCESS_METHODS = ['upi', 'nb', 'card', 'wallet', 'emi'] as const;
export type ProcessMethod = (typeof PROCESS_METHODS)[number];

/**
 * Which fields a method and code need, as the document's table says: VPA for a UPI collect, the device for a UPI
 * intent, a card object for card (whose child fields the document does not show, so the console does not ask for
 * any and cannot send a card payment).
 */
export function processFieldsFor(method: ProcessMethod, code: string) {
  return {
    codes: method === 'upi' ? (['collect', 'qr', 'intent'] as const) : method === 'card' ? (['card'] as const) : null,
    vpa: method === 'upi' && code === 'collect',
    device: method === 'upi' && code === 'intent',
    card: method === 'card',
  };
}

/** The reason a card payment cannot be sent from the console. */
export const CARD_NOT_SHOWN =
  "The interface does not show the card object's fields, so the console cannot send a card payment: use the hosted checkout.";

/** Process order as the form and the CLI give it: checked by the API's own schema, with no card object. */
export const processForm = z
  .object({
    order_id: z.string().trim().min(1, 'must not be empty').max(64),
    method: z.enum(PROCESS_METHODS),
    code: z.string().trim().min(1, 'must not be empty').max(64),
    vpa: z.string().trim().optional(),
    device: z.enum(['android', 'ios']).optional(),
  })
  .strict()
  .superRefine((form, ctx) => {
    if (form.method === 'card') ctx.addIssue({ code: 'custom', path: ['method'], message: CARD_NOT_SHOWN });
    const fields = processFieldsFor(form.method, form.code);
    // Only the fields the method and code use are sent, so a stale VPA in a hidden field never travels.
    const checked = processOrderRequest.safeParse({
      order_id: form.order_id,
      method: form.method,
      code: form.code,
      vpa: fields.vpa ? form.vpa || undefined : undefined,
      device: fields.device ? form.device : undefined,
    });
    if (!checked.success && form.method !== 'card') {
      for (const issue of checked.error.issues)
        ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    }
  })
  .transform((form) => {
    const fields = processFieldsFor(form.method, form.code);
    return {
      order_id: form.order_id,
      method: form.method,
      code: form.code,
      ...(fields.vpa && form.vpa ? { vpa: form.vpa } : {}),
      ...(fields.device && form.device ? { device: form.device } : {}),
    };
  });
export type ProcessForm = z.input<typeof processForm>;

/** What a processed payment shows: the payment id, and the link, token and type when the answer has them. */
export const processedPayment = z.object({
  paymentId: z.string(),
  type: z.string().nullable(),
  token: z.string().nullable(),
  url: z.string().nullable(),
  params: z.array(z.unknown()),
  message: z.string().nullable(),
  requestId: z.string().nullable(),
  /** The journal entry of the attempt: a lost answer is checked from it. */
  attemptSeq: z.number().int().positive(),
});
export type ProcessedPayment = z.infer<typeof processedPayment>;

/** A `upi://` link is what a UPI app scans; only those get a QR code. */
export function isUpiLink(url: string | null): url is string {
  return url !== null && /^upi:\/\/pay\?/i.test(url);
}

export const currencyQuery = z.object({ from: currencyCode, to: currencyCode }).strict();

export const conversion = z.object({
  from: z.string(),
  to: z.string(),
  /** Exact decimal text, as the service gave it. */
  rate: z.string(),
  requestId: z.string().nullable(),
});
export type Conversion = z.infer<typeof conversion>;

/**
 * `minor` × `rate` exactly, as decimal text with every digit (no rounding): the rate is decimal text, so the product
 * of the two integers scaled by the rate's decimals is exact; the desk sees the true figure, not a float.
 */
export function convertExactly(minor: number, rate: string): string {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(rate);
  if (!m) throw new Error(`"${rate}" is not a decimal rate`);
  const frac = m[2] ?? '';
  const scale = frac.length + 2;
  const product = (BigInt(minor) * BigInt(m[1]! + frac)).toString().padStart(scale + 1, '0');
  const whole = product.slice(0, -scale);
  const decimals = product.slice(-scale).replace(/0+$/, '');
  return decimals ? `${whole}.${decimals}` : whole;
}
