import { useState, type FormEvent } from 'react';
import type { IpcError } from '../../../shared/ipc/contract';
import type { PlanRecord } from '../../../shared/plans';
import { resultOf } from '../query/ipc-query';
import { FormField } from '../ui/FormField';
import { OfflineBanner } from '../ui/OfflineBanner';
import { useOfflineReason } from '../ui/offline';
import { PageHeader } from '../ui/PageHeader';
import { EmptyState, ErrorNotice } from '../ui/states';
import { CreatePlanForm } from './CreatePlanForm';
import { PlanDetail } from './PlanDetail';
import { useFetchPlan } from './plans-queries';
import '../tools/tools.css';

/** Subscription plans: create one with every documented field, fetch one by its id or merchant reference. */
export function PlansScreen() {
  const [id, setId] = useState('');
  const [plan, setPlan] = useState<PlanRecord | null>(null);
  const [failure, setFailure] = useState<IpcError | null>(null);
  const fetchPlan = useFetchPlan();
  const offline = useOfflineReason();

  async function lookUp(planId: string) {
    setFailure(null);
    const r = await resultOf(fetchPlan.mutateAsync({ id: planId.trim() }));
    if (r.ok) setPlan(r.value);
    else setFailure(r.error);
  }
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void lookUp(id);
  };

  return (
    <div className="screen tools-screen">
      <OfflineBanner />
      <PageHeader title="Plans" />
      <section className="tools-panel" aria-labelledby="plans-fetch-title">
        <h2 id="plans-fetch-title">Fetch a plan</h2>
        <form className="tools-row" onSubmit={submit} noValidate>
          <FormField label="Plan id or merchant reference">
            {(p) => <input {...p} className="input" data-search value={id} onChange={(e) => setId(e.target.value)} />}
          </FormField>
          <button
            type="submit"
            className="button"
            disabled={fetchPlan.isPending || offline !== null || !id.trim()}
            title={offline ?? undefined}
          >
            Fetch
          </button>
        </form>
        {failure && <ErrorNotice error={failure} />}
        {plan ? (
          <PlanDetail plan={plan} />
        ) : (
          !failure && <EmptyState title="No plan shown">Fetch one by its id, or create one below.</EmptyState>
        )}
      </section>
      <CreatePlanForm
        onCreated={(planId) => {
          setId(planId);
          void lookUp(planId);
        }}
      />
    </div>
  );
}
