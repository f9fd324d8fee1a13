/** Schemas of the `accounts.*` channels: payout accounts and balances per gateway, refreshed or from the cache. */
import { z } from 'zod';
import { accountsOverview, balanceCheckRequest, balanceHistoryQuery, balanceSnapshot } from '../accounts';
import { headroomReport, headroomThreshold } from '../headroom';
import type { DomainSchemas } from './contract';

export const accountsChannels = {
  /** What the cache holds, with no request: works offline. */
  'accounts.overview': { input: z.undefined(), output: accountsOverview },
  /** Asks every gateway (or one) for its accounts, records the answer, returns the new overview. */
  'accounts.refresh': {
    input: z.object({ pg: z.string().trim().min(1).max(64).optional() }).strict(),
    output: accountsOverview,
  },
  /** The balance operation for one gateway or account, recorded as snapshots. */
  'accounts.checkBalance': { input: balanceCheckRequest, output: z.array(balanceSnapshot) },
  'accounts.history': { input: balanceHistoryQuery, output: z.array(balanceSnapshot) },
  /** Payable now per account, gateway and in total, with pending payouts and low-headroom alerts: from the cache. */
  'accounts.headroom': { input: z.undefined(), output: headroomReport },
  /** Sets (or, with null, clears) a gateway's low-headroom threshold in paise; the new report. */
  'accounts.setHeadroomThreshold': { input: headroomThreshold, output: headroomReport },
} satisfies DomainSchemas<'accounts'>;
