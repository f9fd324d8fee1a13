/** Handlers of the payment tools, plans, webhooks and classification channels, for the active profile. */
import type { ClassificationService } from '../merchant/classification';
import type { PaymentToolService } from '../merchant/payment-tools';
import { webhookAction } from '../approvals/action-catalogue';
import type { Approvals } from '../approvals/approvals';
import type { PlanService } from '../merchant/plans';
import type { WebhookService } from '../merchant/webhooks';
import type { ProfileStore } from '../profiles/profile-store';
import type { IpcHandlers } from './router';

type Handled =
  | 'tools.methods'
  | 'tools.process'
  | 'tools.currency'
  | 'plans.create'
  | 'plans.fetch'
  | 'plans.checkCreate'
  | 'webhooks.list'
  | 'webhooks.update'
  | 'classification.classify';

export function createMerchantToolHandlers(
  services: {
    tools: PaymentToolService;
    plans: PlanService;
    webhooks: WebhookService;
    classification: ClassificationService;
  },
  approvals: Approvals,
  profiles: ProfileStore,
): Pick<IpcHandlers, Handled> {
  const active = () => profiles.active().id;
  const { tools, plans, webhooks, classification } = services;
  return {
    'tools.methods': (query) => tools.methods(active(), query),
    'tools.process': ({ requestKey, order }) =>
      approvals.gate(active(), requestKey, { action: 'order.process', order }),
    'tools.currency': ({ from, to }) => tools.currency(active(), from, to),
    'plans.create': ({ requestKey, plan }) => approvals.gate(active(), requestKey, { action: 'plan.create', plan }),
    'plans.fetch': ({ id }) => plans.fetch(active(), id),
    'plans.checkCreate': ({ attemptSeq }) => plans.checkCreate(active(), attemptSeq),
    'webhooks.list': ({ active: only }) => webhooks.list(active(), only),
    'webhooks.update': ({ requestKey, change }) =>
      approvals.gate(active(), requestKey, { action: webhookAction(change), change }),
    'classification.classify': (request) => classification.classify(active(), request),
  };
}
