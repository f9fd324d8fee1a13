/**
 * Turns a received body into the input an operation's request schema checks: the credentials go
 * (auth.ts has checked them), path parameters come in, and the document's Variant B request spellings
 * are read as their Variant A names, so a client sending either shape is understood.
 */
import type { OperationName } from '../../shared/api/operations';

/** Variant B field names -> Variant A names, per operation. */
const ALIASES: Partial<Record<OperationName, Record<string, string>>> = {
  'order.refundPartial': { order_id: 'id' },
  'plan.fetch': { plan_id: 'id' },
};

export function prepareInput(
  name: OperationName,
  body: Record<string, unknown>,
  pathParams: Record<string, string>,
): Record<string, unknown> {
  const input = { ...body };
  delete input.key;
  delete input.hash;
  for (const [from, to] of Object.entries(ALIASES[name] ?? {})) {
    if (input[to] === undefined && input[from] !== undefined) {
      input[to] = input[from];
      delete input[from];
    }
  }
  if (name === 'beneficiary.create') flattenAccount(input);
  return { ...input, ...pathParams };
}

/** Beneficiary create, Variant B: `account {account_no, ifsc}` instead of flat account_number / ifsc. */
function flattenAccount(input: Record<string, unknown>): void {
  const account = input.account;
  if (typeof account !== 'object' || account === null || Array.isArray(account)) return;
  const { account_no, ifsc } = account as Record<string, unknown>;
  if (input.account_number === undefined && account_no !== undefined) input.account_number = account_no;
  if (input.ifsc === undefined && ifsc !== undefined) input.ifsc = ifsc;
  delete input.account;
}
