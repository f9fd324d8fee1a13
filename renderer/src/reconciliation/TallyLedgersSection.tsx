/**
 * The Settings screen's Tally section: the ledger each voucher line posts to, named once per profile. Tally matches a
 * ledger by its exact name, so an empty field is left unnamed (an export that needs it is refused naming it) rather
 * than guessed. Checked with the schema main stores it with.
 */
import { useState, type FormEvent } from 'react';
import { TALLY_LEDGER_LABELS, TALLY_LEDGER_ROLES, tallyLedgers, type TallyLedgers } from '../../../shared/tally';
import { ipcErrorOf } from '../query/ipc-query';
import { FormField } from '../ui/FormField';
import { SaveActions } from '../ui/SaveActions';
import { ErrorNotice, Skeleton } from '../ui/states';
import { useReconAccounts, useSaveTallyLedgers } from './recon-queries';
import './reconciliation.css';

export function TallyLedgersSection() {
  const accounts = useReconAccounts();
  // Held here, above the form: a save changes what main holds, which starts the form again, and "Saved." stays.
  const save = useSaveTallyLedgers();
  return (
    <section className="settings-section" aria-labelledby="tally-ledgers-title">
      <div className="section-head">
        <h2 id="tally-ledgers-title">Tally: ledger names for settlement vouchers</h2>
      </div>
      {accounts.isPending && <Skeleton rows={2} label="Loading Tally ledgers" />}
      {accounts.isError && <ErrorNotice error={ipcErrorOf(accounts.error)} onRetry={() => void accounts.refetch()} />}
      {/* Keyed by what main holds: a save (or a profile switch) starts the form again from it. */}
      {accounts.data && (
        <LedgersForm key={JSON.stringify(accounts.data.tallyLedgers)} stored={accounts.data.tallyLedgers} save={save} />
      )}
    </section>
  );
}

function LedgersForm({ stored, save }: { stored: TallyLedgers; save: ReturnType<typeof useSaveTallyLedgers> }) {
  const [draft, setDraft] = useState<TallyLedgers>(stored);
  const [errors, setErrors] = useState<Record<string, string>>({});

  function submit(event: FormEvent) {
    event.preventDefault();
    // An emptied field clears that ledger's name: the channel replaces the names as a whole.
    const named = Object.fromEntries(Object.entries(draft).filter(([, v]) => v !== undefined && v.trim() !== ''));
    const checked = tallyLedgers.safeParse(named);
    if (!checked.success) {
      setErrors(Object.fromEntries(checked.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    save.mutate(checked.data);
  }

  return (
    <form className="tally-ledgers-form" onSubmit={submit} noValidate aria-label="Tally ledgers">
      {TALLY_LEDGER_ROLES.map((role) => (
        <FormField key={role} label={TALLY_LEDGER_LABELS[role]} error={errors[role]}>
          {(control) => (
            <input
              {...control}
              className="input"
              value={draft[role] ?? ''}
              onChange={(e) => setDraft({ ...draft, [role]: e.target.value })}
            />
          )}
        </FormField>
      ))}
      <SaveActions label="Save Tally ledgers" save={save} />
    </form>
  );
}
