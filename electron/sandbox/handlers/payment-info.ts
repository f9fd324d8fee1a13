/**
 * Payment information: the payment-method listing, UPI address validation, currency conversion.
 *
 * VPA rule: a well-formed address whose handle is one of UPI_HANDLES is valid, and the payer's name is
 * made from its letters; any other handle is well-formed but unknown (`isVPAValid: false`).
 * Currency rule: fixed reference rates through INR, six decimals, exact (decimal text, never floats).
 */
import { BANKS, INR_PER, UPI_HANDLES } from '../data/catalog';
import { CODE, fail, invalid, ok, unknownGateway, type Handlers } from './reply';

/** EMI shows only for baskets of Rs 3,000 and up, as lenders require. */
const EMI_MINIMUM = 300_000;

export const paymentInfoHandlers: Handlers<'info.paymentMethods' | 'info.vpa' | 'info.currency'> = {
  'info.paymentMethods': (req, ctx) => {
    if (!String(ctx.headers['user-agent'] ?? '').trim()) return invalid('user-agent: header is required');
    const bad = unknownGateway(req.pg, ctx);
    if (bad) return bad;
    const emi = req.amount === undefined || Number(req.amount) >= EMI_MINIMUM;
    const listing = methodListing(emi);
    return ctx.variant === 'B' ? ok({ methods: flatten(listing) }) : ok({ data: listing, request_id: ctx.requestId });
  },

  'info.vpa': ({ vpa }, ctx) => {
    const [local = '', handle = ''] = vpa.split('@');
    const valid = handle.toLowerCase() in UPI_HANDLES;
    if (ctx.variant === 'B') {
      return valid
        ? ok({ message: 'VPA is valid', vpa })
        : fail(CODE.generic, `VPA ${vpa} is not registered with any UPI app`);
    }
    return ok(valid ? { isVPAValid: true, payerAccountName: payerName(local) } : { isVPAValid: false });
  },

  'info.currency': ({ from, to }, ctx) => {
    for (const [field, code] of [
      ['from', from],
      ['to', to],
    ] as const) {
      if (!(code in INR_PER))
        return invalid(`${field}: unsupported currency ${code} (supported: ${Object.keys(INR_PER).join(', ')})`);
    }
    const rate = divideDecimal(INR_PER[from]!, INR_PER[to]!, 6);
    if (ctx.variant === 'B')
      return ok({ conversion_rate: Number(rate), converted_amount: Number(divideDecimal(rate, '1', 2)) });
    return ok({ from, to, conversion_rate: rate });
  },
};

function methodListing(emi: boolean) {
  const card = (codes: readonly string[]) => codes.map((code) => ({ code, title: CARD_NAMES[code]! }));
  return {
    netbanking: {
      priority: 2,
      data: BANKS.map((b, i) => ({
        code: b.code,
        title: b.title,
        // One bank is always down, so a UI has an unhealthy bank to show.
        health: b.code !== 'YESB',
        favorite: i < 3,
        image: `https://static.sandbox.invalid/banks/${b.code.toLowerCase()}.png`,
      })),
    },
    debitcard: { priority: 3, data: card(['VISA', 'MC', 'RUPAY']) },
    creditcard: { priority: 4, data: card(['VISA', 'MC', 'AMEX', 'RUPAY']) },
    upi: {
      priority: 1,
      data: { collect: 'UPI ID (collect request)', intent: 'UPI apps on this phone', qr: 'Scan a UPI QR code' },
    },
    intent: true,
    wallet: true,
    emi,
    scanAndPay: true,
    upiQr: true,
    convenience_fee: false,
  };
}

const CARD_NAMES: Readonly<Record<string, string>> = {
  VISA: 'Visa',
  MC: 'Mastercard',
  AMEX: 'American Express',
  RUPAY: 'RuPay',
};

/** Variant B: one flat list of {id, name, type}; flags that are on become entries of their own type. */
function flatten(listing: ReturnType<typeof methodListing>) {
  const out: { id: string; name: string; type: string }[] = [];
  for (const section of ['netbanking', 'debitcard', 'creditcard'] as const) {
    for (const m of listing[section].data) out.push({ id: m.code, name: m.title, type: section });
  }
  for (const [id, name] of Object.entries(listing.upi.data)) out.push({ id, name, type: 'upi' });
  for (const flag of ['intent', 'wallet', 'emi', 'scanAndPay', 'upiQr', 'convenience_fee'] as const) {
    if (listing[flag]) out.push({ id: flag, name: flag, type: flag });
  }
  return out;
}

function payerName(local: string): string {
  const letters = local.replace(/[^A-Za-z]+/g, ' ').trim();
  return letters ? letters.toUpperCase() : 'UPI CUSTOMER';
}

/** a / b as decimal text with `scale` places, rounded half up, computed exactly on integers. */
export function divideDecimal(a: string, b: string, scale: number): string {
  const [na, sa] = toScaled(a);
  const [nb, sb] = toScaled(b);
  // a/b = (na/10^sa) / (nb/10^sb); scale the numerator so the quotient carries `scale` places.
  const num = na * 10n ** BigInt(scale + sb) * 2n;
  const den = nb * 10n ** BigInt(sa);
  const q = (num / den + 1n) / 2n;
  const digits = q.toString().padStart(scale + 1, '0');
  const text = scale ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
  return scale ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

function toScaled(text: string): [bigint, number] {
  const [whole = '0', frac = ''] = text.split('.');
  return [BigInt(whole + frac), frac.length];
}
