/**
 * A proposal's frozen request as a person reads it, for the Approvals screen and `approvals show` alike: each field
 * under its label ("Amount", "Refund note"), never its wire name (`refund_amount`), and every amount in figures and
 * words. What is shown is still every field exactly as it will be sent.
 */
import { amountInWords } from './amount-words';
import type { Proposal } from './approvals';
import { TEMPLATE_HEADERS } from './beneficiary-import';
import { formatMoney } from './money';

/** Each field of any action's request, by its name in the request. */
const FIELD_LABELS: Readonly<Record<string, string>> = {
  ...TEMPLATE_HEADERS,
  orderId: 'Order',
  order_id: 'Order',
  amount: 'Amount',
  currency: 'Currency',
  reason: 'Reason',
  method: 'Payment method',
  code: 'Method code',
  device: 'Device',
  url: 'New URL',
  topics: 'Event topics',
  active: 'Active',
  title: 'Title',
  description: 'Description',
  frequency: 'Every (days)',
  cycle: 'Deductions',
  mer_reference_id: 'Your reference',
  notes: 'Notes',
  udf1: 'Note 1',
  udf2: 'Note 2',
  udf3: 'Note 3',
  udf4: 'Note 4',
  udf5: 'Note 5',
  fileName: 'File',
  digest: 'File digest (SHA-256)',
};

/** What `id` names in each action that carries one. */
const ID_LABELS: Readonly<Partial<Record<Proposal['action'], string>>> = {
  'subscription.charge': 'Subscription',
  'subscription.cancel': 'Subscription',
  'webhook.update': 'Webhook',
  'webhook.deactivate': 'Webhook',
};

/** A field whose name the list above does not hold is shown as a sentence-case phrase, not as code. */
const spelt = (key: string) => {
  const words = key.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1).toLowerCase();
};

const money = (minor: number, currency: string) =>
  `${formatMoney(minor, currency)} (${amountInWords(minor, currency)})`;

function valueText(key: string, value: unknown, currency: string): string {
  if (value === null || value === undefined) return key === 'amount' ? 'the whole refundable amount' : '—';
  // A plan's amount travels as the text of its paise; every amount is read in figures and words.
  if (key === 'amount' && (typeof value === 'number' || /^\d+$/.test(String(value)))) {
    return money(Number(value), currency);
  }
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join(', ');
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** An import's rows: one line per payee, its fields under their labels. */
function payeeLine(b: Record<string, unknown>): string {
  return Object.entries(b)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${FIELD_LABELS[k] ?? spelt(k)} ${String(v)}`)
    .join(' · ');
}

/** Every field of the frozen request under its label, nested ones (a payee, a plan, a change) flattened. */
export function requestLines(p: Pick<Proposal, 'action' | 'request' | 'currency'>): [string, string][] {
  const currency = p.currency ?? (typeof p.request['currency'] === 'string' ? p.request['currency'] : 'INR');
  const lines: [string, string][] = [];
  const walk = (value: Record<string, unknown>) => {
    for (const [k, v] of Object.entries(value)) {
      if (k === 'action') continue;
      if (k === 'rows' && Array.isArray(v)) {
        for (const row of v as { row: number; beneficiary: Record<string, unknown> }[]) {
          lines.push([`Row ${row.row}`, payeeLine(row.beneficiary)]);
        }
      } else if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
        walk(v as Record<string, unknown>);
      } else {
        const label = k === 'id' ? (ID_LABELS[p.action] ?? 'Id') : (FIELD_LABELS[k] ?? spelt(k));
        lines.push([label, valueText(k, v, currency)]);
      }
    }
  };
  walk(p.request);
  return lines;
}
