/**
 * Payouts: beneficiaries, payout status, payout accounts per gateway, balances.
 *
 * Hard pull (`fetch_type: "advance"`): a pending payout resolves to `success` on its 2nd advance fetch
 * (a UTR and processed_at appear); a `normal` fetch reads the stored status and never changes it.
 * Failed payouts carry `error` inside the payout and the gateway's `error_code` / `error_message` beside it.
 * An unknown payout answers `{status:false, error_code:404, error_message}` with no envelope.
 * Money: payout amounts and account balances are rupee JSON numbers; the balance operation (Variant A)
 * writes `status: "true"` and rupee strings, as the document shows.
 */
import { formatMinor } from '../../../shared/money';
import { epochMsToIst } from '../../../shared/time';
import type { BeneficiaryRec, GatewayAccountsRec, PayoutRec } from '../state';
import { CODE, fail, ok, rupees, unknownGateway, type Ctx, type Handlers, type Reply } from './reply';

export const ADVANCE_FETCHES_TO_RESOLVE = 2;

export const payoutHandlers: Handlers<
  'beneficiary.create' | 'beneficiary.fetch' | 'payout.fetch' | 'payout.accounts' | 'payout.balance'
> = {
  'beneficiary.create': (req, ctx) => {
    const bene: BeneficiaryRec = {
      beneficiary_id: ctx.state.newId('bene'),
      name: req.name.trim(),
      vpa: req.vpa ?? '',
      account_number: req.account_number ?? '',
      ifsc: req.ifsc ?? '',
      phone: req.phone ?? '',
      email: req.email ?? '',
      address: req.address ?? '',
    };
    ctx.state.beneficiaries.set(bene.beneficiary_id, bene);
    return ok({ message: 'Beneficiary added successfully', beneficiary_id: bene.beneficiary_id });
  },

  'beneficiary.fetch': ({ id }, ctx) => {
    const b = ctx.state.beneficiaries.get(id);
    if (!b) return fail(CODE.notFound, `Beneficiary ${id} not found`);
    const message = 'Beneficiary fetched successfully';
    if (ctx.variant === 'B') return ok({ message, beneficiary: beneficiaryB(b) });
    return ok({ message, data: { ...b } });
  },

  'payout.fetch': ({ id, fetch_type }, ctx) => {
    const fetches = ctx.state.payoutFetches.get(id) ?? { normal: 0, advance: 0 };
    fetches[fetch_type] += 1;
    ctx.state.payoutFetches.set(id, fetches);
    const p = ctx.state.payouts.get(id);
    if (!p)
      return { http: 200, body: { status: false, error_code: CODE.notFound, error_message: `Payout ${id} not found` } };
    if (fetch_type === 'advance') hardPull(p, ctx);
    const beside =
      p.status === 'failed' && p.error_code !== null ? { error_code: p.error_code, error_message: p.error } : {};
    return ok({ payout: payoutWire(p, ctx), ...beside });
  },

  'payout.accounts': ({ pg }, ctx) => {
    const gateways = selectGateways(pg, ctx);
    if (!Array.isArray(gateways)) return gateways;
    if (ctx.variant === 'B') {
      const accounts = gateways
        .filter((g) => !g.fails)
        .flatMap((g) =>
          g.accounts.map((a) => ({ pg: g.pg, account_id: a.account_number, balance: rupees(a.available_balance) })),
        );
      return ok({ accounts });
    }
    const accounts = Object.fromEntries(
      gateways.map((g) => [g.pg, g.fails ? gatewayError() : { status: true, data: g.accounts.map(accountWire) }]),
    );
    return ok({ accounts });
  },

  'payout.balance': ({ pg, account_number }, ctx) => {
    const gateways = selectGateways(pg, ctx);
    if (!Array.isArray(gateways)) return gateways;
    // One balance per gateway: the account asked for, else the gateway's primary (first) account.
    const rows = gateways.flatMap((g) => {
      const a =
        account_number === undefined ? g.accounts[0] : g.accounts.find((x) => x.account_number === account_number);
      return a ? [{ pg: g.pg, account: a }] : [];
    });
    if (rows.length === 0)
      return fail(CODE.notFound, `No payout account ${account_number} found${pg ? ` on ${pg}` : ''}`);
    if (ctx.variant === 'B')
      return ok({ balances: rows.map((r) => ({ pg: r.pg, balance: rupees(r.account.available_balance) })) });
    const account = Object.fromEntries(
      rows.map((r) => [
        r.pg,
        { account_no: r.account.account_number, balance: formatMinor(r.account.available_balance) },
      ]),
    );
    return { http: 200, body: { status: 'true', account } };
  },
};

function hardPull(p: PayoutRec, ctx: Ctx): void {
  p.advanceFetches += 1;
  if (p.status === 'pending' && p.advanceFetches >= ADVANCE_FETCHES_TO_RESOLVE) {
    p.status = 'success';
    p.ut_no = ctx.state.newDigits(12);
    p.processed_at = epochMsToIst(ctx.now());
  }
}

function payoutWire(p: PayoutRec, ctx: Ctx) {
  const b = ctx.state.beneficiaries.get(p.beneficiary_id);
  return {
    transfer_status: p.status,
    error: p.error,
    transfer_id: p.transfer_id,
    ut_no: p.ut_no,
    amount: rupees(p.amount),
    fund_source: p.fund_source,
    method: p.method,
    processed_at: p.processed_at,
    beneficiary: b ? beneficiaryB(b) : undefined,
    ack: p.ack,
  };
}

function beneficiaryB(b: BeneficiaryRec) {
  return {
    name: b.name,
    email: b.email,
    phone: b.phone,
    vpa: b.vpa,
    account: { account_no: b.account_number, ifsc: b.ifsc },
  };
}

function selectGateways(pg: string | undefined, ctx: Ctx): GatewayAccountsRec[] | Reply {
  const bad = unknownGateway(pg, ctx);
  if (bad) return bad;
  return pg === undefined ? ctx.state.gatewayAccounts : ctx.state.gatewayAccounts.filter((g) => g.pg === pg);
}

function accountWire(a: GatewayAccountsRec['accounts'][number]) {
  return {
    account_number: a.account_number,
    ifsc_code: a.ifsc_code,
    account_type: a.account_type,
    currency: a.currency,
    available_balance: rupees(a.available_balance),
    account_balance: rupees(a.account_balance),
    minimum_balance: rupees(a.minimum_balance),
    hold_fund: a.hold_fund === null ? null : rupees(a.hold_fund),
    overdraft: a.overdraft === null ? null : rupees(a.overdraft),
    transaction_limit: rupees(a.transaction_limit),
  };
}

/** The document's per-gateway failure: overall `status: true`, this gateway's entry false. */
function gatewayError() {
  return {
    status: false,
    error: { message: 'Gateway did not answer the account lookup in time', code: 'INTERNAL_SERVER_ERROR' },
  };
}
