/**
 * The payable-now table of a gateway that gave no figure: "—" with the reason in Payable now, With overdraft and
 * After pending, never ₹0.00; a gateway with figures shows them as money.
 */
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { GatewayHeadroom } from '../../shared/headroom';
import { columns } from '../../renderer/src/accounts/PayableNow';
import { DataTable } from '../../renderer/src/ui/DataTable';

const AT = '2026-06-15T06:30:00.000Z';
const base: GatewayHeadroom = {
  pg: 'alpha',
  payable: 4_000_00,
  payableWithOverdraft: 5_000_00,
  pending: 700_00,
  pendingCount: 1,
  afterPending: 3_300_00,
  afterPendingWithOverdraft: 4_300_00,
  stale: null,
  asOf: AT,
  threshold: null,
  low: false,
};
const silent: GatewayHeadroom = {
  ...base,
  pg: 'easebuzz',
  payable: null,
  payableWithOverdraft: null,
  afterPending: null,
  afterPendingWithOverdraft: null,
  stale: { code: '503', message: 'Gateway unavailable', at: AT },
  asOf: null,
};

function cells(row: GatewayHeadroom) {
  const { container, unmount } = render(
    <DataTable
      id="payable-test"
      label="Payable"
      columns={columns(0)}
      rows={[row]}
      rowKey={(g) => g.pg}
      sort={null}
      onSort={() => undefined}
    />,
  );
  const heads = [...container.querySelectorAll('th')].map((th) => th.textContent?.trim() ?? '');
  const tds = [...container.querySelectorAll('tbody tr td')];
  const by = (label: string) => tds[heads.findIndex((h) => h.startsWith(label))]!;
  const out = {
    payable: by('Payable now'),
    overdraft: by('With overdraft'),
    after: by('After pending'),
    asOf: by('Figures of').textContent,
  };
  const texts = Object.fromEntries(
    Object.entries(out).map(([k, v]) => [k, typeof v === 'string' || v === null ? v : v.textContent]),
  );
  const labels = [out.payable, out.overdraft, out.after].map((c) =>
    c.querySelector('[aria-label]')?.getAttribute('aria-label'),
  );
  unmount();
  return { texts, labels };
}

describe('payable now by gateway', () => {
  it('shows a gateway that gave no figure as "—" with its reason, never ₹0.00', () => {
    const { texts, labels } = cells(silent);
    expect([texts.payable, texts.overdraft, texts.after]).toEqual(['—', '—', '—']);
    expect(Object.values(texts).join(' ')).not.toContain('₹0.00');
    for (const label of labels) {
      expect(label).toBe('No figure: the gateway answered “Gateway unavailable”, and there is no earlier good figure.');
    }
    expect(texts.asOf).toContain('No good figure yet; the gateway answered “Gateway unavailable”');
  });
  it('shows a gateway with figures as money', () => {
    const { texts } = cells(base);
    expect([texts.payable, texts.overdraft, texts.after]).toEqual(['₹4,000.00', '₹5,000.00', '₹3,300.00']);
  });
});
