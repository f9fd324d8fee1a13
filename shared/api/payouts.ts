/**
 * Payouts: beneficiaries, payout status, payout accounts per gateway, account balances.
 *
 * Money: payout `amount` and the account balances are JSON numbers in major units (rupees) in the
 * document, and the balance operation's Variant A sends decimal strings; all become exact minor units.
 *
 * Variant mapping (B -> domain):
 * - beneficiary create request: we send A's flat `account_number`/`ifsc`; B nests `account {account_no, ifsc}`.
 * - beneficiary fetch: B `beneficiary {name, email, phone, vpa, account{account_no, ifsc}}` -> `data` with
 *   `account_number`/`ifsc` flattened; B carries no id, so the client fills `beneficiary_id` from the request.
 * - payout: `transfer_status` boolean -> `"success"` (true) / `"failed"` (false); text kept lowercase.
 * - accounts: B `[{pg, account_id, balance}]` -> `accounts[pg] = {status: true, data: [{account_number, available_balance}]}`.
 * - balance: A `account {pg: {account_no, balance}}` and B `balances [{pg, balance}]` -> `balances [{pg, account_no?, balance}]`.
 */
import { z } from 'zod';
import { idText, ifsc, istDateTime, majorAmount, nonEmpty, requestId, routingText, statusTrue, vpa } from './common';

// ---- domain --------------------------------------------------------------------------------------

export const beneficiary = z.looseObject({
  beneficiary_id: idText.optional(),
  name: z.string(),
  vpa: routingText,
  account_number: routingText,
  ifsc: routingText,
  phone: z.string().nullish(),
  email: z.string().nullish(),
  address: z.string().nullish(),
});
export type Beneficiary = z.output<typeof beneficiary>;

const bankAccountB = z.looseObject({ account_no: routingText, ifsc: routingText });

export const payoutBeneficiary = z.looseObject({
  name: z.string().optional(),
  email: z.string().nullish(),
  phone: z.string().nullish(),
  vpa: routingText,
  account: bankAccountB.nullish(),
});

export const payout = z
  .looseObject({
    transfer_status: z.union([z.boolean(), z.string()]),
    error: z.string().nullish(),
    transfer_id: idText,
    ut_no: z.string().nullish(),
    amount: majorAmount,
    fund_source: z.string().optional(),
    method: z.string().optional(),
    processed_at: istDateTime.nullish(),
    beneficiary: payoutBeneficiary.optional(),
    ack: z.string().optional(),
  })
  .transform((p) => ({ ...p, transfer_status: normalizeTransferStatus(p.transfer_status) }));
export type Payout = z.output<typeof payout>;

/** The document shows `transfer_status` both as a boolean and as text such as "failed". */
export function normalizeTransferStatus(value: boolean | string): string {
  if (value === true) return 'success';
  if (value === false) return 'failed';
  return value.trim().toLowerCase();
}

const balanceOrNull = majorAmount.nullish().transform((v) => v ?? null);

export const payoutAccount = z.looseObject({
  account_number: z.string(),
  ifsc_code: z.string().optional(),
  account_type: z.string().optional(),
  currency: z.string().optional(),
  available_balance: majorAmount,
  account_balance: majorAmount.optional(),
  minimum_balance: majorAmount.optional(),
  hold_fund: balanceOrNull,
  overdraft: balanceOrNull,
  transaction_limit: majorAmount.nullish(),
});
export type PayoutAccount = z.output<typeof payoutAccount>;

export const gatewayAccounts = z.union([
  z.looseObject({ status: z.literal(true), data: z.array(payoutAccount) }),
  z.looseObject({
    status: z.literal(false),
    error: z.looseObject({ message: z.string(), code: z.union([z.string(), z.number()]).transform(String) }),
  }),
]);
export type GatewayAccounts = z.output<typeof gatewayAccounts>;

export interface Balance {
  pg: string;
  account_no?: string;
  balance: number;
  [extra: string]: unknown;
}

// ---- requests ---------------------------------------------------------------------------------------

const optionalText = (schema: z.ZodType<string, string>) => z.union([schema, z.literal('')]).optional();

/**
 * The characters Indian banks take in a beneficiary name (NEFT, RTGS and IMPS carry names in a Latin character
 * set; bulk-payee uploads of the big banks refuse the rest): letters A to Z in either case, digits, the space and
 * these marks. An emoji, a Devanagari letter or a curly quote is refused at the bank, or shows there as a box.
 */
export const NAME_MARKS = ". , - ' & ( ) /";
export const NAME_CHARACTERS_RULE = `letters A to Z, digits, spaces and the marks “${NAME_MARKS}”`;
const NAME_CHARACTER = /^[A-Za-z0-9 .,\-'&()/]$/;

/** The first character of a name banks refuse, named so a person can find it (an emoji shows as a box), or null. */
export function nameCharacterProblem(name: string): string | null {
  const bad = [...name].find((c) => !NAME_CHARACTER.test(c));
  if (bad === undefined) return null;
  const code = `U+${bad.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  return `has “${bad}” (${code}), which banks refuse in a name: use only ${NAME_CHARACTERS_RULE}`;
}

const beneficiaryName = nonEmpty.max(100, 'must be at most 100 characters').superRefine((name, ctx) => {
  const problem = nameCharacterProblem(name);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

export const beneficiaryCreateRequest = z
  .object({
    name: beneficiaryName,
    phone: optionalText(z.string().regex(/^[6-9]\d{9}$/, 'must be a 10-digit Indian mobile number')),
    email: optionalText(z.email('must be an email address')),
    address: z.string().max(250, 'must be at most 250 characters').optional(),
    account_number: optionalText(z.string().regex(/^\d{9,18}$/, 'must be 9 to 18 digits')),
    ifsc: optionalText(ifsc),
    vpa: optionalText(vpa),
  })
  .superRefine((b, ctx) => {
    if (!!b.account_number !== !!b.ifsc) {
      ctx.addIssue({
        code: 'custom',
        path: [b.account_number ? 'ifsc' : 'account_number'],
        message: 'account number and IFSC go together',
      });
    }
    if (!b.account_number && !b.vpa) {
      ctx.addIssue({
        code: 'custom',
        path: ['account_number'],
        message: 'give a bank account (number and IFSC) or a UPI address',
      });
    }
  });
export type BeneficiaryCreateRequest = z.input<typeof beneficiaryCreateRequest>;

export const beneficiaryFetchRequest = z.object({ id: nonEmpty });

export const payoutFetchRequest = z.object({
  id: nonEmpty,
  fetch_type: z.enum(['normal', 'advance']).default('normal'),
});

export const payoutAccountsRequest = z.object({ pg: nonEmpty.optional() });

export const balanceRequest = z.object({ pg: nonEmpty.optional(), account_number: nonEmpty.optional() });

// ---- responses --------------------------------------------------------------------------------------

export const beneficiaryCreateResponse = z
  .looseObject({ status: statusTrue, message: z.string().optional(), beneficiary_id: idText, request_id: requestId })
  .transform(({ message, beneficiary_id, request_id }) => ({ message: message ?? '', beneficiary_id, request_id }));

const beneficiaryB = z
  .looseObject({
    name: z.string(),
    email: z.string().nullish(),
    phone: z.string().nullish(),
    vpa: routingText,
    account: bankAccountB.nullish(),
  })
  .transform(
    ({ account, ...rest }) =>
      ({ ...rest, account_number: account?.account_no ?? null, ifsc: account?.ifsc ?? null }) as Beneficiary,
  );

export const beneficiaryFetchResponse = z.union([
  z
    .looseObject({ status: statusTrue, message: z.string().optional(), data: beneficiary, request_id: requestId })
    .transform(({ message, data, request_id }) => ({ message: message ?? '', data, request_id })),
  z
    .looseObject({
      status: statusTrue,
      message: z.string().optional(),
      beneficiary: beneficiaryB,
      request_id: requestId,
    })
    .transform(({ message, beneficiary: data, request_id }) => ({ message: message ?? '', data, request_id })),
]);

/**
 * A payout lookup. The gateway's own error for the payout may ride beside it as `error_code` /
 * `error_message`; a body with those and no `payout` at all is an error, read by `readErrorBody`.
 */
export const payoutFetchResponse = z
  .looseObject({
    status: z.union([z.boolean(), z.literal('true'), z.literal('false')]),
    payout,
    error_code: z.union([z.number(), z.string()]).optional(),
    error_message: z.string().optional(),
    request_id: requestId,
  })
  .transform(({ payout: p, error_code, error_message, request_id }) => ({
    payout: p,
    error_code,
    error_message,
    request_id,
  }));

const accountB = z.looseObject({ pg: z.string(), account_id: idText, balance: majorAmount });

function groupAccountsB(list: z.output<typeof accountB>[]): Record<string, GatewayAccounts> {
  const out: Record<string, { status: true; data: PayoutAccount[] }> = {};
  for (const { pg, account_id, balance, ...extra } of list) {
    (out[pg] ??= { status: true, data: [] }).data.push({
      ...extra,
      account_number: account_id,
      available_balance: balance,
      hold_fund: null,
      overdraft: null,
    });
  }
  return out;
}

export const payoutAccountsResponse = z.union([
  z
    .looseObject({ status: statusTrue, accounts: z.record(z.string(), gatewayAccounts), request_id: requestId })
    .transform(({ accounts, request_id }) => ({ accounts, request_id })),
  z
    .looseObject({ status: statusTrue, accounts: z.array(accountB), request_id: requestId })
    .transform(({ accounts, request_id }) => ({ accounts: groupAccountsB(accounts), request_id })),
]);

export const balanceResponse = z.union([
  z
    .looseObject({
      status: statusTrue,
      account: z.record(z.string(), z.looseObject({ account_no: z.string().optional(), balance: majorAmount })),
      request_id: requestId,
    })
    .transform(({ account, request_id }) => ({
      balances: Object.entries(account).map(([pg, a]): Balance => ({ ...a, pg })),
      request_id,
    })),
  z
    .looseObject({
      status: statusTrue,
      balances: z.array(z.looseObject({ pg: z.string(), account_no: z.string().optional(), balance: majorAmount })),
      request_id: requestId,
    })
    .transform(({ balances, request_id }) => ({
      balances,
      request_id,
    })),
]);
