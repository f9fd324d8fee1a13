/**
 * Every message: each reason and message the beneficiary import, the forms, the IFSC check and the status bar can
 * produce is made here, from the same functions the screens call, and none may have a word twice in a row, two marks
 * of punctuation together, a field's name glued to a sentence that is not about it, or an emoji.
 */
import { describe, expect, it } from 'vitest';
import { explain } from '../../electron/api/user-messages';
import type { ApiErrorKind } from '../../electron/api/errors';
import type { TransportFailure } from '../../electron/api/transport';
import {
  OUTCOME_LABELS,
  TEMPLATE_HEADERS,
  checkRows,
  describeProblems,
  mapColumns,
  type SheetCell,
} from '../../shared/beneficiary-import';
import { messageFaults } from '../../shared/messages';
import { checkIfsc } from '../../electron/treasury/ifsc';
import {
  FIELD_LABELS,
  EMPTY_VALUES,
  addedText,
  checkBeneficiary,
  vpaProblem,
  type FormValues,
} from '../../renderer/src/beneficiaries/beneficiary-form';
import { parseThreshold } from '../../renderer/src/accounts/low-balance';
import { offlineReasonText } from '../../renderer/src/ui/offline';
import { connectivityText, syncedText } from '../../renderer/src/StatusBar';

const LABELS = [...new Set([...Object.values(FIELD_LABELS), ...Object.values(TEMPLATE_HEADERS)])];
const AT = '2026-06-15T06:30:00.000Z';

const KINDS: readonly (ApiErrorKind | 'hash')[] = [
  'invalid_input',
  'api',
  'auth',
  'rate_limited',
  'unavailable',
  'network',
  'tls',
  'timeout',
  'outcome_unknown',
  'invalid_response',
  'http',
  'cancelled',
  'hash',
];
const TRANSPORTS: readonly TransportFailure[] = [
  'refused',
  'dns',
  'connect_timeout',
  'timeout',
  'reset',
  'tls',
  'aborted',
  'too_large',
  'other',
];

/** What a person types wrong, one field at a time, and the pairs that only go wrong together. */
const BAD_FORMS: Partial<FormValues>[] = [
  { name: '' },
  { name: 'x'.repeat(101) },
  { name: '🙂 Priya Sharma' },
  { name: '🚀 Rocket Payee' },
  { phone: '12345' },
  { email: 'not an email' },
  { address: 'a'.repeat(251) },
  { account_number: '12ab', confirm_account_number: '12ab', ifsc: 'HDFC0001234' },
  { account_number: '123456789012', confirm_account_number: '123456789012' },
  { account_number: '123456789012', confirm_account_number: '123456789013', ifsc: 'HDFC0001234' },
  { account_number: '123456789012', ifsc: 'HDFC0001234' },
  { ifsc: 'HDFC0001234' },
  { ifsc: 'BAD', account_number: '123456789012', confirm_account_number: '123456789012' },
  { vpa: 'no-at-sign' },
  { vpa: '' },
];

function formMessages(): string[] {
  const out: string[] = [];
  for (const bad of BAD_FORMS) {
    const checked = checkBeneficiary({ ...EMPTY_VALUES, name: 'Priya Sharma', ...bad });
    expect(checked.ok, JSON.stringify(bad)).toBe(false);
    if (!checked.ok) out.push(...Object.values(checked.errors).filter((e): e is string => !!e));
  }
  for (const vpa of ['', 'no-at-sign', 'a@', '@b']) {
    const problem = vpaProblem(vpa);
    if (problem) out.push(problem);
  }
  for (const threshold of ['-5', '1.234', 'ten']) {
    const parsed = parseThreshold(threshold);
    if (!parsed.ok) out.push(parsed.message);
  }
  out.push(addedText({ name: 'Priya Sharma', beneficiary_id: 'bene_1001' }));
  return out;
}

function importMessages(): string[] {
  const headers = ['Name', 'Account number', 'IFSC', 'UPI address', 'Phone', 'Email', 'Address'];
  const row = (over: Partial<Record<(typeof headers)[number], SheetCell>>): SheetCell[] =>
    headers.map((h) =>
      h in over ? over[h]! : h === 'Name' ? 'Priya Sharma' : h === 'UPI address' ? 'p@okaxis' : null,
    );
  const rows: SheetCell[][] = [
    row({ Name: '' }),
    row({ Name: 'x'.repeat(101) }),
    row({ Name: '🙂 Priya Sharma' }),
    row({ Phone: '12345' }),
    row({ Email: 'not an email' }),
    row({ Address: 'a'.repeat(251) }),
    row({ 'Account number': '12ab', IFSC: 'HDFC0001234' }),
    row({ 'Account number': '123456789012' }),
    row({ IFSC: 'HDFC0001234' }),
    row({ 'Account number': '123456789012', IFSC: 'BAD' }),
    row({ 'UPI address': null }),
    row({ 'UPI address': 'no-at-sign' }),
    row({ 'Account number': { number: 1234567890123456, format: null }, IFSC: 'SBIN0000001' }),
    row({ 'Account number': { number: 12.5, format: null }, IFSC: 'SBIN0000001' }),
    row({ 'Account number': '1.23E+17', IFSC: 'SBIN0000001' }),
    row({ Name: '', 'UPI address': null, Phone: '1', Email: 'x' }),
  ];
  const checked = checkRows(mapColumns(headers), rows);
  const reasons = checked.map((c) => describeProblems(c.problems));
  expect(reasons.filter((r) => r === '')).toEqual([]);
  const mapping = [
    ...mapColumns(['Name', 'name', 'vpa']).problems,
    ...mapColumns(['Account number']).problems,
    ...mapColumns(['Name', 'Phone']).problems,
    ...mapColumns(['Name', 'UPI address', 'GSTIN']).problems,
    ...mapColumns(['Vendor', 'GSTIN']).problems,
  ];
  expect(mapping.length).toBeGreaterThanOrEqual(3);
  return [
    ...reasons,
    ...mapping,
    ...Object.values(OUTCOME_LABELS),
    'The same payee as row 2.',
    'Already a beneficiary: Priya Sharma (bene_1001).',
  ];
}

/** What the IFSC check says under the form's field, in the import preview and from the CLI. */
async function ifscMessages(): Promise<string[]> {
  const unknown = ['HDFC0ZZZZZZ', 'SBIN0999999', 'BARB0ZZZZZZ', 'UTIB0ZZZZZZ', 'QQQQ0000001', 'ZZZZ0ABCDEF'];
  const checks = await Promise.all(unknown.map(checkIfsc));
  return checks.map((c) => c.warning!);
}

function statusBarMessages(): string[] {
  const reasons = [...KINDS.map((k) => explain(k)), ...TRANSPORTS.map((t) => explain('network', t)), undefined];
  return [
    ...reasons.flatMap((reason) => [
      connectivityText({ state: 'offline', since: AT, reason })[1],
      offlineReasonText(reason),
    ]),
    connectivityText({ state: 'online', since: AT })[1],
    connectivityText(null)[1],
    syncedText({ settlementsSyncedAt: null, balancesAt: null } as Parameters<typeof syncedText>[0]),
    syncedText({ settlementsSyncedAt: null, balancesAt: AT } as Parameters<typeof syncedText>[0]),
    syncedText({ settlementsSyncedAt: AT, balancesAt: AT } as Parameters<typeof syncedText>[0]),
  ];
}

describe('every message', () => {
  it.each([
    ['the import', importMessages],
    ['the forms', formMessages],
    ['the status bar', statusBarMessages],
    ['the IFSC check', ifscMessages],
  ] as const)(
    '%s: no doubled words, doubled punctuation, field name glued to a sentence, or emoji',
    async (_, make) => {
      const messages = await make();
      expect(messages.length).toBeGreaterThan(5);
      const faulty = messages
        .map((m) => ({ message: m, faults: messageFaults(m, LABELS) }))
        .filter((m) => m.faults.length > 0);
      expect(faulty).toEqual([]);
    },
  );

  it('catches each fault the walk-through found', () => {
    expect(messageFaults('Account number account number and IFSC go together', LABELS)).not.toEqual([]);
    expect(messageFaults('IFSC account number and IFSC go together', LABELS)).not.toEqual([]);
    expect(messageFaults('Account number give a bank account (number and IFSC) or a UPI address', LABELS)).not.toEqual(
      [],
    );
    expect(messageFaults('Beneficiary added successfully 🙂 Priya Sharma (b1) is in the list.', LABELS)).not.toEqual(
      [],
    );
    expect(messageFaults('Check the address and that the service is up.. Use “Check connection”.', LABELS)).not.toEqual(
      [],
    );
    expect(messageFaults('IFSC must be an IFSC code such as HDFC0001234.', LABELS)).toEqual([]);
  });
});
