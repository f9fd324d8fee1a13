/**
 * Payment information: payment-method listing, UPI address validation, currency conversion.
 *
 * Variant mapping (B -> domain):
 * - methods:  B `methods: [{id, name, type}]` is grouped by `type` into A's sections: netbanking /
 *             debitcard / creditcard lists get `{code: id, title: name}`, `upi` gets `{[id]: name}`, and any
 *             other type sets that flag (`wallet`, `emi`, ...) to true.
 * - vpa:      B `{message, vpa}` is a success body, so `isVPAValid` = true; `payerAccountName` absent.
 * - currency: A is not shown; the sandbox answers `{from, to, conversion_rate}`. B `conversion_rate`
 *             (number) and `converted_amount` (major units) map as they are. Rates are kept as decimal
 *             text (never arithmetic on a float rate); `converted_amount` becomes minor units.
 */
import { z } from 'zod';
import { currencyCode, majorAmount, requestId, statusTrue, vpa } from './common';

const bankEntry = z.looseObject({
  code: z.string(),
  title: z.string(),
  health: z.boolean().optional(),
  favorite: z.boolean().optional(),
  image: z.string().optional(),
});
const listSection = z.looseObject({ priority: z.number().int().optional(), data: z.array(bankEntry) });
const upiSection = z.looseObject({ priority: z.number().int().optional(), data: z.record(z.string(), z.string()) });
const flag = z.unknown().optional();

export const paymentMethods = z.looseObject({
  netbanking: listSection.optional(),
  debitcard: listSection.optional(),
  creditcard: listSection.optional(),
  upi: upiSection.optional(),
  intent: flag,
  wallet: flag,
  emi: flag,
  scanAndPay: flag,
  upiQr: flag,
  convenience_fee: flag,
});
export type PaymentMethods = z.output<typeof paymentMethods>;

export const paymentMethodsRequest = z.object({
  amount: z.string().regex(/^\d+$/, 'must be whole minor units as text').optional(),
  currency: currencyCode.optional(),
  callback: z.url().optional(),
  udf1: z.string().optional(),
  pg: z.string().optional(),
  pg_pool_id: z.string().optional(),
});

const methodB = z.looseObject({
  id: z.union([z.string(), z.number()]).transform(String),
  name: z.string(),
  type: z.string(),
});

function groupMethods(methods: z.output<typeof methodB>[]): PaymentMethods {
  const out: Record<string, unknown> = {};
  for (const m of methods) {
    const type = m.type === 'nb' ? 'netbanking' : m.type;
    if (type === 'netbanking' || type === 'debitcard' || type === 'creditcard') {
      const section = (out[type] ??= { data: [] }) as { data: { code: string; title: string }[] };
      const { id, name, ...extra }: Record<string, unknown> = m;
      delete extra.type;
      section.data.push({ ...extra, code: String(id), title: String(name) });
    } else if (type === 'upi') {
      const section = (out.upi ??= { data: {} }) as { data: Record<string, string> };
      section.data[m.id] = m.name;
    } else {
      out[type] = true;
    }
  }
  return out as PaymentMethods;
}

export const paymentMethodsResponse = z.union([
  z
    .looseObject({ status: statusTrue, data: paymentMethods, request_id: requestId })
    .transform(({ data, request_id }) => ({ data, request_id })),
  z
    .looseObject({ status: statusTrue, methods: z.array(methodB), request_id: requestId })
    .transform(({ methods, request_id }) => ({ data: groupMethods(methods), request_id })),
]);

export const vpaRequest = z.object({ vpa });

export const vpaResponse = z.union([
  z
    .looseObject({
      status: statusTrue,
      isVPAValid: z.boolean(),
      payerAccountName: z.string().optional(),
      request_id: requestId,
    })
    .transform(({ isVPAValid, payerAccountName, request_id }) => ({ isVPAValid, payerAccountName, request_id })),
  z
    .looseObject({ status: statusTrue, message: z.string().optional(), vpa: z.string(), request_id: requestId })
    .transform(({ message, vpa: v, request_id }) => ({
      isVPAValid: true,
      payerAccountName: undefined,
      vpa: v,
      message,
      request_id,
    })),
]);
export type VpaValidation = z.output<typeof vpaResponse>;

export const currencyRequest = z.object({ from: currencyCode, to: currencyCode });

const DECIMAL_TEXT = /^\d+(\.\d+)?$/;
const rateText = z
  .union([z.string().regex(DECIMAL_TEXT, 'must be a decimal rate'), z.number().positive()])
  .transform((v) => String(v));

export const currencyResponse = z
  .looseObject({
    status: statusTrue,
    from: z.string().optional(),
    to: z.string().optional(),
    conversion_rate: rateText,
    converted_amount: majorAmount.optional(),
    request_id: requestId,
  })
  .transform(({ from, to, conversion_rate, converted_amount, request_id }) => ({
    from,
    to,
    conversion_rate,
    converted_amount,
    request_id,
  }));
export type CurrencyConversion = z.output<typeof currencyResponse>;
