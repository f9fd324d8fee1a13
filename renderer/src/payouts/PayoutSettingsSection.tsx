/**
 * The Settings screen's payout section: expected turnaround per method (for ageing and "overdue") and whether the
 * watch list may use advance checks. Checked with the same schema main stores it with; nothing is saved while a
 * field is wrong.
 */
import { useState, type FormEvent } from 'react';
import { payoutSettings, type PayoutSettings } from '../../../shared/payout-ageing';
import { ipcErrorOf } from '../query/ipc-query';
import { FormField } from '../ui/FormField';
import { SaveActions } from '../ui/SaveActions';
import { ErrorNotice, Skeleton } from '../ui/states';
import { usePayoutSettings, useSavePayoutSettings } from './payouts-queries';

interface Draft {
  impsMinutes: string;
  upiMinutes: string;
  rtgsMinutes: string;
  neftBatches: string;
  neftCreditMinutes: string;
  watchAdvance: boolean;
}

const draftOf = (s: PayoutSettings): Draft => ({
  impsMinutes: String(s.turnaround.impsMinutes),
  upiMinutes: String(s.turnaround.upiMinutes),
  rtgsMinutes: String(s.turnaround.rtgsMinutes),
  neftBatches: s.turnaround.neftBatches.join(', '),
  neftCreditMinutes: String(s.turnaround.neftCreditMinutes),
  watchAdvance: s.watchAdvance,
});

const whole = (text: string) => (/^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN);

const MINUTE_FIELDS = [
  ['impsMinutes', 'IMPS: due after (minutes)'],
  ['upiMinutes', 'UPI: due after (minutes)'],
  ['rtgsMinutes', 'RTGS: due after (minutes)'],
  ['neftCreditMinutes', 'NEFT: due after its batch (minutes)'],
] as const;

export function PayoutSettingsSection() {
  const query = usePayoutSettings();
  return (
    <section className="settings-section payout-settings-section" aria-labelledby="payout-settings-title">
      <div className="section-head">
        <h2 id="payout-settings-title">Payouts: expected turnaround and the watch list</h2>
      </div>
      {query.isPending && <Skeleton rows={2} label="Loading payout settings" />}
      {query.isError && <ErrorNotice error={ipcErrorOf(query.error)} onRetry={() => void query.refetch()} />}
      {/* Keyed by what main holds: a save (or a profile switch) starts the form again from it. */}
      {query.data && <SettingsForm key={JSON.stringify(query.data)} stored={query.data} />}
    </section>
  );
}

function SettingsForm({ stored }: { stored: PayoutSettings }) {
  const save = useSavePayoutSettings();
  const [draft, setDraft] = useState<Draft>(() => draftOf(stored));
  const [errors, setErrors] = useState<Record<string, string>>({});

  function submit(event: FormEvent) {
    event.preventDefault();
    const candidate = {
      turnaround: {
        impsMinutes: whole(draft.impsMinutes),
        upiMinutes: whole(draft.upiMinutes),
        rtgsMinutes: whole(draft.rtgsMinutes),
        neftBatches: draft.neftBatches.split(/[\s,;]+/).filter(Boolean),
        neftCreditMinutes: whole(draft.neftCreditMinutes),
      },
      watchAdvance: draft.watchAdvance,
    };
    const checked = payoutSettings.safeParse(candidate);
    if (!checked.success) {
      setErrors(
        Object.fromEntries(
          checked.error.issues.map((i) => [
            String(i.path[1] ?? i.path[0]),
            /NaN|number/.test(i.message) ? 'must be whole minutes' : i.message,
          ]),
        ),
      );
      return;
    }
    setErrors({});
    save.mutate(checked.data);
  }

  return (
    <form className="payout-settings-form" onSubmit={submit} noValidate aria-label="Payout settings">
      {MINUTE_FIELDS.map(([name, label]) => (
        <FormField key={name} label={label} error={errors[name]}>
          {(control) => (
            <input
              {...control}
              className="input"
              inputMode="numeric"
              value={draft[name]}
              onChange={(e) => setDraft({ ...draft, [name]: e.target.value })}
            />
          )}
        </FormField>
      ))}
      <FormField
        label="NEFT batch times (IST, HH:MM)"
        error={errors['neftBatches']}
        hint="In order, separated by commas; a payout is due after the first batch at or after it was first seen."
      >
        {(control) => (
          <textarea
            {...control}
            className="input mono"
            rows={4}
            value={draft.neftBatches}
            onChange={(e) => setDraft({ ...draft, neftBatches: e.target.value })}
          />
        )}
      </FormField>
      <label className="payout-advance">
        <input
          type="checkbox"
          checked={draft.watchAdvance}
          onChange={(e) => setDraft({ ...draft, watchAdvance: e.target.checked })}
        />
        The watch list uses advance checks (asks the gateways directly; paced)
      </label>
      <SaveActions label="Save payout settings" save={save} />
    </form>
  );
}
