import type { Migration } from '../migrations';

export const migration: Migration = {
  version: 6,
  name: 'gateway errors of payout lookups, transaction limits of accounts',
  sql: `
      ALTER TABLE payout_lookups ADD COLUMN gateway_error_code TEXT;
      ALTER TABLE payout_lookups ADD COLUMN gateway_error_message TEXT;
      ALTER TABLE payout_accounts ADD COLUMN transaction_limit INTEGER;
      CREATE INDEX beneficiaries_by_vpa ON beneficiaries (vpa) WHERE vpa IS NOT NULL;
      CREATE INDEX beneficiaries_by_account ON beneficiaries (account_number, ifsc) WHERE account_number IS NOT NULL;
    `,
};
