import { Fragment } from 'react';
import type { PlanRecord } from '../../../shared/plans';
import { formatMoney } from '../../../shared/money';

/** Every field the plan answer carries; what it left out is marked. */
export function PlanDetail({ plan }: { plan: PlanRecord }) {
  const missing = <span className="muted">not given</span>;
  return (
    <dl className="facts" aria-label={`Plan ${plan.id}`}>
      <dt>Plan id</dt>
      <dd className="mono">{plan.id}</dd>
      <dt>Title</dt>
      <dd>{plan.title}</dd>
      <dt>Description</dt>
      <dd>{plan.description || missing}</dd>
      <dt>Amount</dt>
      <dd>{formatMoney(plan.amount, plan.currency)}</dd>
      <dt>Frequency</dt>
      <dd>{plan.frequency !== undefined ? `every ${plan.frequency} days` : (plan.interval ?? missing)}</dd>
      <dt>Cycle</dt>
      <dd>{plan.cycle !== undefined ? `${plan.cycle} deductions` : missing}</dd>
      <dt>Merchant reference</dt>
      <dd className="mono">{plan.mer_reference_id ?? missing}</dd>
      {Object.entries(plan.notes ?? {}).map(([k, v]) => (
        <Fragment key={k}>
          <dt>{k}</dt>
          <dd>{v || missing}</dd>
        </Fragment>
      ))}
    </dl>
  );
}
