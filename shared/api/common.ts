/**
 * Building blocks for the API contract. Response schemas are "loose": fields the document does not
 * name are kept as they arrive (a gateway adding a field must not break the console), while a missing
 * or mistyped field the document does name is an error that says which operation and which field.
 */
import { z } from 'zod';
import { MoneyError, integerMinor, majorNumberToMinor, parseDecimalToMinor } from '../money';
import { isCalendarDate, isIsoUtc, isIstDateTime } from '../time';

function moneyFrom<T>(convert: (value: T) => number) {
  return (value: T, ctx: z.RefinementCtx) => {
    try {
      return convert(value);
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: e instanceof MoneyError ? e.message : String(e) });
      return z.NEVER;
    }
  };
}

/** An amount the API sends as an integer of minor units (the document's `integer` amounts). */
export const minorInt = z.number().transform(moneyFrom(integerMinor));

/**
 * An amount the API sends in major units, as a decimal string ("12.50") or a JSON number (1234.5).
 * Either way the result is exact minor units.
 */
export const majorAmount = z
  .union([z.string(), z.number()])
  .transform(
    moneyFrom((v: string | number) => (typeof v === 'string' ? parseDecimalToMinor(v) : majorNumberToMinor(v))),
  );

/** `YYYY-MM-DD HH:MM:SS` (IST). */
export const istDateTime = z.string().refine(isIstDateTime, 'expected YYYY-MM-DD HH:MM:SS');
/** ISO 8601 UTC (`...Z`). */
export const isoUtc = z.string().refine(isIsoUtc, 'expected an ISO 8601 UTC time');
/** `YYYY-MM-DD`, a real calendar date. */
export const calendarDate = z.string().refine(isCalendarDate, 'expected a real date YYYY-MM-DD');

/** `status: true` of every success body; the balance operation's Variant A writes it as the string "true". */
export const statusTrue = z.union([z.literal(true), z.literal('true')]);

export const requestId = z.string().optional();

/** Identifiers are text everywhere, but one sample shows a beneficiary id as a number. */
export const idText = z.union([z.string(), z.number()]).transform((v) => String(v));

export const nonEmpty = z.string().trim().min(1, 'must not be empty');

/**
 * Routing text (UPI address, account number, IFSC) as the service sends it: it writes `""` for "none" (an
 * IMPS payout to a bank account carries `vpa: ""`), so blank text is absent, never a value money could go to.
 */
export const routingText = z
  .string()
  .transform((v) => (v.trim() === '' ? null : v))
  .nullish();

export const customer = z.looseObject({
  name: z.string().optional(),
  email: z.string().optional(),
  phone: z.string().optional(),
});

const udf = z.string().optional();
export const notes = z.looseObject({
  udf1: udf,
  udf2: udf,
  udf3: udf,
  udf4: udf,
  udf5: udf,
  udf6: udf,
  udf8: udf,
  udf9: udf,
  udf10: udf,
});

export const address = z.looseObject({
  firstname: z.string().optional(),
  lastname: z.string().optional(),
  phone: z.string().optional(),
  line1: z.string().optional(),
  line2: z.string().optional(),
  city: z.string().optional(),
  state: z.string().optional(),
  country: z.string().optional(),
  zipcode: z.string().optional(),
});

/** Positive whole minor units in a request (refund amounts, plan amounts as text, ...). */
export const positiveMinor = z.number().int('must be a whole number of minor units').positive('must be positive');
/** A positive whole number of minor units written as text (`"10000"`), as adhoc and plan create send it. */
export const positiveMinorText = z
  .string()
  .regex(/^[1-9]\d*$/, 'must be a positive whole number of minor units, as text');

export const currencyCode = z.string().regex(/^[A-Z]{3}$/, 'must be a 3-letter currency code');

/** Formats that the UI, the sandbox and the client check alike. */
export const IFSC = /^[A-Z]{4}0[A-Z0-9]{6}$/;
export const VPA = /^[A-Za-z0-9._-]{2,256}@[A-Za-z][A-Za-z0-9]{1,63}$/;
export const ifsc = z.string().regex(IFSC, 'must be an IFSC code such as HDFC0001234');
export const vpa = z.string().regex(VPA, 'must be a UPI address such as name@bank');
