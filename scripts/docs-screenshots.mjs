// Copies the e2e tests' screenshots that the README and docs/ show into docs/screenshots/. Run the e2e files first
// (npx vitest run test/e2e/accounts.test.ts test/e2e/beneficiaries.test.ts test/e2e/beneficiary-import.test.ts
// test/e2e/payouts.test.ts test/e2e/screenshots.test.ts test/e2e/exceptions.test.ts
// test/e2e/exceptions-desk.test.ts): they write test-results/screenshots/ at 1280 px wide, light and dark. test/unit/readme.test.ts checks that the README and docs/ show exactly these and that each is there.
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const DOC_SCREENSHOTS = [
  'accounts-light.png',
  'accounts-offline-dark.png',
  'beneficiary-confirm-mismatch-light.png',
  'beneficiary-changed-light.png',
  'beneficiary-import-light.png',
  'beneficiary-import-preview-light.png',
  'payouts-watch-light.png',
  'payouts-bulk-light.png',
  'payouts-bulk-offline-dark.png',
  'settings-payouts-light.png',
  'exceptions-light.png',
  'exceptions-resolved-dark.png',
  'exceptions-desk-light.png',
];

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const from = join(root, 'test-results', 'screenshots');
  const to = join(root, 'docs', 'screenshots');
  mkdirSync(to, { recursive: true });
  const missing = DOC_SCREENSHOTS.filter((f) => !existsSync(join(from, f)));
  if (missing.length) {
    console.error(`not in ${from}: ${missing.join(', ')} (run the e2e files named at the top of this script)`);
    process.exit(1);
  }
  for (const f of DOC_SCREENSHOTS) copyFileSync(join(from, f), join(to, f));
  console.log(`copied ${DOC_SCREENSHOTS.length} screenshots to ${to}`);
}
