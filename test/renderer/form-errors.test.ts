/** Schema problems and main's refusals as sentences on the fields they belong to. */
import { describe, expect, it } from 'vitest';
import { errorsFromIpc, errorsFromIssues, zodIssues } from '../../renderer/src/ui/form-errors';
import { beneficiaryForm } from '../../shared/beneficiaries';

const LABELS = { name: 'Name', ifsc: 'IFSC' } as const;

describe('form errors', () => {
  it('reads predicates after the label and capitalises whole clauses', () => {
    const errors = errorsFromIssues(LABELS, [
      { path: 'ifsc', message: 'must be 4 letters, 0, then 6 letters or digits' },
      { path: 'name', message: 'account number and IFSC go together' },
    ]);
    expect(errors).toEqual({
      ifsc: 'IFSC must be 4 letters, 0, then 6 letters or digits.',
      name: 'Account number and IFSC go together.',
    });
  });

  it('keeps the first problem of a field and puts unknown paths on the form', () => {
    const errors = errorsFromIssues(
      LABELS,
      [
        { path: 'beneficiary.ifsc', message: 'is required' },
        { path: 'beneficiary.ifsc', message: 'is too long' },
        { path: 'beneficiary.other', message: 'Something else is wrong.' },
      ],
      'beneficiary.',
    );
    expect(errors).toEqual({ ifsc: 'IFSC is required.', form: 'Something else is wrong.' });
  });

  it("maps main's INVALID_INPUT details, and any other refusal to the form", () => {
    expect(
      errorsFromIpc(
        LABELS,
        {
          code: 'INVALID_INPUT',
          message: 'The input is not valid.',
          details: [{ path: 'fields.name', message: 'is required' }],
        },
        'fields.',
      ),
    ).toEqual({ name: 'Name is required.' });
    expect(errorsFromIpc(LABELS, { code: 'API_NETWORK', message: 'The service did not answer.' })).toEqual({
      form: 'The service did not answer.',
    });
    expect(errorsFromIpc(LABELS, { code: 'INVALID_INPUT', message: 'The input is not valid.', details: [] })).toEqual({
      form: 'The input is not valid.',
    });
  });

  it('turns a shared schema failure into the same field errors main would send', () => {
    const parsed = beneficiaryForm.safeParse({ name: 'Vendor', ifsc: 'bad', account_number: '123' });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    const issues = zodIssues(parsed.error.issues);
    expect(issues.every((i) => typeof i.path === 'string' && i.message.length > 0)).toBe(true);
    const errors = errorsFromIssues({ ...LABELS, account_number: 'Account number' }, issues);
    expect(Object.keys(errors).length).toBeGreaterThan(0);
    expect(Object.values(errors).every((sentence) => /[.!?]$/.test(sentence ?? ''))).toBe(true);
  });
});
