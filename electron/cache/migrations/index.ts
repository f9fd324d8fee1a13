/**
 * Every migration of the cache, in order: one file each, named by its version. A migration is never edited once
 * shipped; a change is a new file, added at the end of this list.
 */
import type { Migration } from '../migrations';
import { migration as m001 } from './001-sync-runs';
import { migration as m002 } from './002-settlements';
import { migration as m003 } from './003-beneficiaries';
import { migration as m004 } from './004-payout-lookups';
import { migration as m005 } from './005-payout-accounts-and-balances';
import { migration as m006 } from './006-payout-gateway-errors-and-limits';
import { migration as m007 } from './007-settlement-search-keys';
import { migration as m008 } from './008-audit-journal-and-period-close';
import { migration as m009 } from './009-bulk-payout-checks';
import { migration as m010 } from './010-beneficiary-imports';
import { migration as m011 } from './011-reconciliation';
import { migration as m012 } from './012-settlement-changes-and-exceptions';
import { migration as m013 } from './013-orders-and-subscriptions';
import { migration as m014 } from './014-settlement-sort-keys';
import { migration as m015 } from './015-sort-key-marks';
import { migration as m016 } from './016-sort-key-mark-lists';
import { migration as m017 } from './017-status-sort-keys';
import { migration as m018 } from './018-journal-desk-outbox';
import { migration as m019 } from './019-desk-exception-states';
import { migration as m020 } from './020-match-difference-reason';
import { migration as m021 } from './021-statement-proof';
import { migration as m022 } from './022-desk-unpublished-dates';
import { migration as m023 } from './023-journal-verifications-and-today';
import { migration as m024 } from './024-exception-figures';
import { migration as m025 } from './025-rollup-line-kinds';
import { migration as m026 } from './026-packed-sort-keys';
import { migration as m027 } from './027-compact-search-keys';
import { migration as m028 } from './028-batch-modes';

export const MIGRATIONS: readonly Migration[] = [
  m001,
  m002,
  m003,
  m004,
  m005,
  m006,
  m007,
  m008,
  m009,
  m010,
  m011,
  m012,
  m013,
  m014,
  m015,
  m016,
  m017,
  m018,
  m019,
  m020,
  m021,
  m022,
  m023,
  m024,
  m025,
  m026,
  m027,
  m028,
];
