import { isPendingApproval, type Proposal } from '../../../shared/approvals';
import { confirmWord, useApprovalNeeded } from '../approvals/approvals-queries';
import { ProposedNotice } from '../approvals/ProposedNotice';
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import {
  normaliseBeneficiaryText,
  type BeneficiaryForm,
  type CachedBeneficiary,
  type VpaCheckResult,
} from '../../../shared/beneficiaries';
import type { Loadable } from '../loadable';
import { loadableOf, resultOf, useIpcFetch } from '../query/ipc-query';
import { useAppInfo } from '../query/app-queries';
import { useOfflineReason } from '../ui/offline';
import { ConfirmDialog } from '../ConfirmDialog';
import { EnvironmentBadge } from '../EnvironmentBadge';
import { FormField } from '../ui/FormField';
import {
  checkBeneficiary,
  EMPTY_VALUES,
  errorsFromIpc,
  FIELD_LABELS,
  targetsOf,
  vpaProblem,
  type FieldName,
  type FormErrors,
  type FormValues,
} from './beneficiary-form';
import { useBeneficiaryCreate, useIfscLookup, useVpaVerification } from './beneficiaries-queries';
import { MaskedAccount } from '../ui/MaskedAccount';
import { namesResemble } from '../../../shared/name-match';
import { mayHaveHappened } from '../query/journaled-action';

/** In reading order; the grid lays them out two to a row. */
const FIELDS: { name: FieldName; placeholder: string; mono?: boolean; hint?: string; inputMode?: 'numeric' | 'tel' }[] =
  [
    { name: 'name', placeholder: 'As on the bank account' },
    {
      name: 'phone',
      placeholder: '9876543210',
      mono: true,
      inputMode: 'tel',
      hint: '10 digits; +91 and spaces are fine.',
    },
    { name: 'email', placeholder: 'name@example.in' },
    { name: 'address', placeholder: 'Optional' },
    { name: 'account_number', placeholder: '9 to 18 digits', mono: true, inputMode: 'numeric' },
    { name: 'confirm_account_number', placeholder: 'Type it again', mono: true, inputMode: 'numeric' },
    { name: 'ifsc', placeholder: 'HDFC0001234', mono: true, hint: '11 characters, such as HDFC0001234.' },
    { name: 'vpa', placeholder: 'name@bank', mono: true },
  ];

type Stage =
  | { kind: 'editing' }
  | { kind: 'checking' }
  | { kind: 'matches'; matches: CachedBeneficiary[] }
  /** The duplicates the user chose to add anyway, repeated in the confirmation. */
  | { kind: 'confirming'; matches: CachedBeneficiary[] };

interface Submission {
  beneficiary: BeneficiaryForm;
  requestKey: string;
}

type Verification = { status: 'idle' } | Loadable<VpaCheckResult>;

/** Under the IFSC: the bank's name as it is typed, or why the list does not know it (a warning: it may be new). */
function IfscText({ typed, hint }: { typed: string; hint: string | undefined }): ReactNode {
  const { ifsc, query } = useIfscLookup(typed);
  const found = query.data?.ifsc === ifsc ? query.data : null;
  if (!found) return hint;
  if (found.warning) return <span className="warning">{found.warning}</span>;
  return found.bank ? <strong>{found.bank}</strong> : hint;
}

function VerificationText({ verification }: { verification: Verification }): ReactNode {
  switch (verification.status) {
    case 'idle':
      return 'Verify asks the UPI network who holds the address.';
    case 'loading':
      return 'Asking the UPI network…';
    case 'failed':
      return <span className="error">Not verified: {verification.error.message}</span>;
    case 'ready': {
      const { valid, accountName, vpa } = verification.value;
      if (!valid) return <span className="error">{vpa} is not a valid UPI address: no UPI app knows it.</span>;
      return (
        <span className="bene-verified">
          ✓ {vpa} belongs to <strong>{accountName ?? 'a holder the service did not name'}</strong>
        </span>
      );
    }
  }
}

function Targets({ beneficiary }: { beneficiary: BeneficiaryForm }) {
  const { bank, vpa } = targetsOf({
    account_number: beneficiary.account_number ?? null,
    ifsc: beneficiary.ifsc ?? null,
    vpa: beneficiary.vpa ?? null,
  });
  return (
    <ul className="bene-targets">
      {bank && (
        <li>
          Bank account <strong className="mono">{bank.account}</strong>, IFSC{' '}
          <strong className="mono">{bank.ifsc}</strong>
        </li>
      )}
      {vpa && (
        <li>
          UPI address <strong className="mono">{vpa}</strong>
        </li>
      )}
    </ul>
  );
}

/** The verified holder's name when it does not resemble the payee's name (shared/name-match.ts), else null. */
function mismatchedHolder(verification: Verification, payee: string): string | null {
  if (verification.status !== 'ready') return null;
  const { valid, accountName } = verification.value;
  if (!valid || !accountName || payee.trim() === '') return null;
  return namesResemble(payee, accountName) ? null : accountName;
}

function NameMismatch({ holder, payee }: { holder: string; payee: string }) {
  return (
    <div className="notice notice-warning bene-mismatch" role="alert">
      <strong>Name mismatch.</strong> The UPI address is registered to “{holder}”, which does not resemble “
      {payee.trim()}”. Payouts go to whoever holds the address: check it with the payee first.
    </div>
  );
}

function DuplicateList({ matches }: { matches: CachedBeneficiary[] }) {
  return (
    <ul>
      {matches.map((m) => {
        const { bank, vpa } = targetsOf(m);
        return (
          <li key={m.beneficiary_id}>
            <strong>{m.name}</strong> <span className="mono">{m.beneficiary_id}</span>
            {bank && (
              <>
                {' · '}
                <MaskedAccount account={bank.account} ifsc={bank.ifsc} />
              </>
            )}
            {vpa && (
              <>
                {' · '}
                <span className="mono">{vpa}</span>
              </>
            )}
          </li>
        );
      })}
    </ul>
  );
}

function MatchesWarning({
  matches,
  onProceed,
  onBack,
}: {
  matches: CachedBeneficiary[];
  onProceed(): void;
  onBack(): void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  useEffect(() => ref.current?.focus(), []);
  const count = matches.length === 1 ? 'A beneficiary' : `${matches.length} beneficiaries`;
  return (
    <div ref={ref} className="notice notice-warning bene-matches" role="alert" aria-labelledby={titleId} tabIndex={-1}>
      <p id={titleId}>
        <strong>Possible duplicate.</strong> {count} in this console already {matches.length === 1 ? 'pays' : 'pay'} to
        the same bank account or UPI address:
      </p>
      <DuplicateList matches={matches} />
      <div className="form-actions">
        <button type="button" className="button" onClick={onProceed}>
          Add anyway…
        </button>
        <button type="button" className="button" onClick={onBack}>
          Back to the form
        </button>
      </div>
    </div>
  );
}

interface AddBeneficiaryFormProps {
  onCreated(beneficiary: CachedBeneficiary, message: string): void;
  onCancel(): void;
}

/**
 * Adds a beneficiary. Nothing is sent while the shared schema finds a problem; a bank account or UPI address
 * the cache already knows needs an explicit "Add anyway"; and the create itself is confirmed with the target
 * repeated. One request key stands for one submission, and only an edit to the form makes a new one: main
 * answers a key that is still out, or whose outcome it could not learn, with that same answer instead of
 * sending again, so neither a double click nor a retry after a lost answer can add the beneficiary twice.
 */
export function AddBeneficiaryForm({ onCreated, onCancel }: AddBeneficiaryFormProps) {
  const create = useBeneficiaryCreate();
  const vpaCheck = useVpaVerification();
  const fetchRead = useIpcFetch();
  const offline = useOfflineReason();
  const profile = useAppInfo().data?.profile ?? null;
  const [values, setValues] = useState<FormValues>(EMPTY_VALUES);
  const [errors, setErrors] = useState<FormErrors>({});
  const [stage, setStage] = useState<Stage>({ kind: 'editing' });
  const needsApproval = useApprovalNeeded('beneficiary.add', null);
  const [busy, setBusy] = useState(false);
  const [uncertain, setUncertain] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const titleId = useId();
  /** What passed the check, with the one key that stands for it until the form changes. */
  const [submission, setSubmission] = useState<Submission | null>(null);
  const [proposed, setProposed] = useState<Proposal | null>(null);
  // A ref, not state: two clicks in one frame both see the same state, but not the same ref.
  const inFlight = useRef(false);

  useEffect(() => {
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);

  const change = (name: FieldName, value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    setErrors((e) => ({ ...e, [name]: undefined, form: undefined }));
    setStage({ kind: 'editing' });
    setSubmission(null);
    setUncertain(false);
    if (name === 'vpa') vpaCheck.reset();
  };

  const back = () => {
    setStage({ kind: 'editing' });
    setSubmission(null);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy || stage.kind !== 'editing') return;
    // The same values failed to send: they go out again with their key, already confirmed.
    if (submission) {
      void send(submission);
      return;
    }
    const checked = checkBeneficiary(values);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setSubmission({ beneficiary: checked.beneficiary, requestKey: crypto.randomUUID() });
    setStage({ kind: 'checking' });
    const { account_number, ifsc, vpa } = checked.beneficiary;
    const matches = await fetchRead('beneficiaries.matches', {
      ...(account_number ? { account_number } : {}),
      ...(ifsc ? { ifsc } : {}),
      ...(vpa ? { vpa } : {}),
    });
    if (!matches.ok) {
      back();
      setErrors({ ...errorsFromIpc(matches.error), form: `Could not look for duplicates: ${matches.error.message}` });
      return;
    }
    setStage(
      matches.value.length > 0 ? { kind: 'matches', matches: matches.value } : { kind: 'confirming', matches: [] },
    );
  }

  async function send({ requestKey, beneficiary }: Submission) {
    if (inFlight.current) return;
    inFlight.current = true;
    setBusy(true);
    setErrors({});
    const result = await resultOf(create.mutateAsync({ requestKey, beneficiary }));
    inFlight.current = false;
    setBusy(false);
    if (result.ok) {
      setSubmission(null);
      if (isPendingApproval(result.value)) setProposed(result.value.pendingApproval);
      else onCreated(result.value.beneficiary, result.value.message);
      return;
    }
    setUncertain(mayHaveHappened(result.error));
    setErrors(errorsFromIpc(result.error, 'beneficiary.'));
  }

  async function verify() {
    const problem = vpaProblem(values.vpa);
    if (problem) {
      setErrors((e) => ({ ...e, vpa: problem }));
      return;
    }
    vpaCheck.mutate({ vpa: normaliseBeneficiaryText('vpa', values.vpa) });
  }

  const verification: Verification = vpaCheck.isIdle ? { status: 'idle' } : loadableOf(vpaCheck);

  const checking = stage.kind === 'checking';
  const holder = mismatchedHolder(verification, values.name);

  return (
    <section className="bene-add" aria-labelledby={titleId}>
      <h2 id={titleId}>New beneficiary</h2>
      <p className="muted bene-add-intro">
        Give a bank account (number and IFSC), a UPI address, or both. Phone, email and address are optional.
      </p>
      <ProposedNotice proposal={proposed} />
      <form ref={formRef} onSubmit={submit} noValidate aria-busy={busy || checking}>
        {/* Locked while the duplicate check or the create is out, so the answer is about the values on screen. */}
        <fieldset className="form-grid bene-add-grid" disabled={busy || checking}>
          {FIELDS.map(({ name, placeholder, mono, hint, inputMode }) => (
            <FormField
              key={name}
              label={FIELD_LABELS[name]}
              error={errors[name]}
              hint={
                name === 'vpa' ? (
                  <VerificationText verification={verification} />
                ) : name === 'ifsc' ? (
                  <IfscText typed={values.ifsc} hint={hint} />
                ) : (
                  hint
                )
              }
            >
              {(ids) => {
                const input = (
                  <input
                    {...ids}
                    className={`input${mono ? ' mono' : ''}`}
                    value={values[name]}
                    placeholder={placeholder}
                    inputMode={inputMode}
                    spellCheck={false}
                    autoComplete="off"
                    autoFocus={name === 'name'}
                    onChange={(e) => change(name, e.target.value)}
                  />
                );
                return name === 'vpa' ? (
                  <div className="bene-input-action">
                    {input}
                    <button
                      type="button"
                      className="button"
                      onClick={() => void verify()}
                      disabled={verification.status === 'loading' || offline !== null}
                      title={offline ?? undefined}
                    >
                      Verify UPI address
                    </button>
                  </div>
                ) : (
                  input
                );
              }}
            </FormField>
          ))}
        </fieldset>
        {errors.form && (
          <div className="notice notice-error bene-form-error" role="alert">
            <p>{errors.form}</p>
            {uncertain && (
              <p>
                The service may have added this beneficiary although its answer was lost. Trying again repeats this
                answer rather than sending the request a second time, so it cannot be added twice; once you know it was
                not added, change the form to send a new request.
              </p>
            )}
          </div>
        )}
        {holder && <NameMismatch holder={holder} payee={values.name} />}
        {stage.kind === 'matches' && (
          <MatchesWarning
            matches={stage.matches}
            onProceed={() => setStage({ kind: 'confirming', matches: stage.matches })}
            onBack={back}
          />
        )}
        <div className="form-actions">
          <button
            type="submit"
            className="button button-primary"
            disabled={busy || checking || stage.kind !== 'editing' || offline !== null}
            title={offline ?? undefined}
          >
            {busy
              ? 'Adding…'
              : checking
                ? 'Checking…'
                : submission && stage.kind === 'editing'
                  ? 'Try again'
                  : 'Add beneficiary…'}
          </button>
          <button type="button" className="button" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
        </div>
      </form>
      {stage.kind === 'confirming' && submission && (
        <ConfirmDialog
          title={`Add “${submission.beneficiary.name}” as a beneficiary?`}
          confirmLabel={confirmWord(needsApproval, 'Add beneficiary')}
          onConfirm={() => {
            setStage({ kind: 'editing' });
            void send(submission);
          }}
          onCancel={back}
        >
          <p>Payouts to this beneficiary will go to:</p>
          <Targets beneficiary={submission.beneficiary} />
          {stage.matches.length > 0 && (
            <div className="notice notice-warning" role="alert">
              <strong>Possible duplicate.</strong> Already paying to the same bank account or UPI address:
              <DuplicateList matches={stage.matches} />
            </div>
          )}
          {holder && <NameMismatch holder={holder} payee={submission.beneficiary.name} />}
          {profile && (
            <p className="bene-confirm-profile">
              Added on <EnvironmentBadge environment={profile.environment} /> “{profile.name}”. Check the account
              against the beneficiary&apos;s own documents first.
            </p>
          )}
        </ConfirmDialog>
      )}
    </section>
  );
}
