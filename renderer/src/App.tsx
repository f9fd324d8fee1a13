import { useEffect, useState } from 'react';
import { useAppInfo } from './app-info-store';
import { AccountsScreen } from './accounts/AccountsScreen';
import { MovedAsideNotices } from './notices/MovedAsideNotices';
import { BeneficiariesScreen } from './beneficiaries/BeneficiariesScreen';
import { JournalScreen } from './journal/JournalScreen';
import { PayoutsScreen } from './payouts/PayoutsScreen';
import { SettingsScreen } from './settings/SettingsScreen';
import { SettlementsScreen } from './settlements/SettlementsScreen';
import { StatusBar } from './StatusBar';
import { WelcomePanel } from './WelcomePanel';

const SECTIONS = [
  { id: 'accounts', label: 'Accounts & balances' },
  { id: 'beneficiaries', label: 'Beneficiaries' },
  { id: 'payouts', label: 'Payouts' },
  { id: 'settlements', label: 'Settlements' },
  { id: 'journal', label: 'Journal' },
  { id: 'settings', label: 'Settings' },
] as const;

type Section = (typeof SECTIONS)[number];

function SectionView({ section }: { section: Section | null }) {
  if (section === null) return <WelcomePanel />;
  switch (section.id) {
    case 'accounts':
      return <AccountsScreen />;
    case 'beneficiaries':
      return <BeneficiariesScreen />;
    case 'payouts':
      return <PayoutsScreen />;
    case 'settlements':
      return <SettlementsScreen />;
    case 'journal':
      return <JournalScreen />;
    case 'settings':
      return <SettingsScreen />;
  }
}

export function App() {
  const load = useAppInfo((store) => store.load);
  const [section, setSection] = useState<Section | null>(null);

  useEffect(() => {
    void load();
  }, [load]);

  return (
    <div className="frame">
      <nav className="sidebar" aria-label="Sections">
        <div className="brand">Payout Console</div>
        <ul>
          {SECTIONS.map((item) => (
            <li key={item.id}>
              <button
                type="button"
                className="nav-item"
                aria-current={section?.id === item.id ? 'page' : undefined}
                onClick={() => setSection(item)}
              >
                {item.label}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <main className="content">
        <MovedAsideNotices />
        <SectionView section={section} />
      </main>
      <StatusBar />
    </div>
  );
}
