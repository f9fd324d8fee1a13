/**
 * Every screen of the console, in the sidebar's groups. A screen is an entry here: its id, label, the key that
 * follows `g` to reach it, and its component. The sidebar, the shortcuts, the `?` list and "reopen on the last
 * screen" all read this list, so adding a screen is adding an entry (docs/contributing/adding-a-screen.md).
 */
import type { ComponentType } from 'react';
import { AccountsScreen } from '../accounts/AccountsScreen';
import { ApprovalsScreen } from '../approvals/ApprovalsScreen';
import { BeneficiariesScreen } from '../beneficiaries/BeneficiariesScreen';
import { ClassificationScreen } from '../classification/ClassificationScreen';
import { ExceptionsScreen } from '../exceptions/ExceptionsScreen';
import { JournalScreen } from '../journal/JournalScreen';
import { OrdersScreen } from '../orders/OrdersScreen';
import { PayoutsScreen } from '../payouts/PayoutsScreen';
import { PlansScreen } from '../plans/PlansScreen';
import { ReconciliationScreen } from '../reconciliation/ReconciliationScreen';
import { SettingsScreen } from '../settings/SettingsScreen';
import { SettlementsScreen } from '../settlements/SettlementsScreen';
import { SubscriptionsScreen } from '../subscriptions/SubscriptionsScreen';
import { TodayScreen } from '../today/TodayScreen';
import { ToolsScreen } from '../tools/ToolsScreen';
import { WebhooksScreen } from '../webhooks/WebhooksScreen';

export interface Screen {
  id: string;
  label: string;
  /** The key after `g`: `g a` opens Accounts. Unique across screens. */
  key: string;
  component: ComponentType;
}

export interface ScreenGroup {
  label: string;
  screens: readonly Screen[];
}

export const SCREEN_GROUPS: readonly ScreenGroup[] = [
  {
    label: 'Treasury',
    screens: [
      { id: 'today', label: 'Today', key: 'h', component: TodayScreen },
      { id: 'accounts', label: 'Accounts & balances', key: 'a', component: AccountsScreen },
      { id: 'beneficiaries', label: 'Beneficiaries', key: 'b', component: BeneficiariesScreen },
      { id: 'payouts', label: 'Payouts', key: 'p', component: PayoutsScreen },
      { id: 'settlements', label: 'Settlements', key: 's', component: SettlementsScreen },
      { id: 'reconciliation', label: 'Reconciliation', key: 'r', component: ReconciliationScreen },
      { id: 'exceptions', label: 'Exceptions', key: 'x', component: ExceptionsScreen },
    ],
  },
  {
    label: 'Merchant',
    screens: [
      { id: 'orders', label: 'Orders & refunds', key: 'o', component: OrdersScreen },
      { id: 'subscriptions', label: 'Subscriptions', key: 'u', component: SubscriptionsScreen },
      { id: 'tools', label: 'Payment tools', key: 't', component: ToolsScreen },
      { id: 'plans', label: 'Plans', key: 'l', component: PlansScreen },
      { id: 'webhooks', label: 'Webhooks', key: 'w', component: WebhooksScreen },
      { id: 'classification', label: 'Classification', key: 'i', component: ClassificationScreen },
      { id: 'approvals', label: 'Approvals', key: 'v', component: ApprovalsScreen },
      { id: 'journal', label: 'Journal', key: 'j', component: JournalScreen },
    ],
  },
  {
    label: 'Console',
    screens: [{ id: 'settings', label: 'Settings', key: 'e', component: SettingsScreen }],
  },
];

export const SCREENS: readonly Screen[] = SCREEN_GROUPS.flatMap((g) => g.screens);

export const screenById = (id: string | null): Screen | null => SCREENS.find((s) => s.id === id) ?? null;

/** The home screen: the console opens on it (docs/guide/screens.md, "Where the console opens"). */
export const HOME_SCREEN: Screen = screenById('today')!;
