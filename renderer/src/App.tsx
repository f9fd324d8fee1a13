import { useEffect, useState } from 'react';
import { useAppInfo } from './app-info-store';
import { StatusBar } from './StatusBar';
import { WelcomePanel } from './WelcomePanel';

const SECTIONS = [
  { id: 'accounts', label: 'Accounts & balances' },
  { id: 'beneficiaries', label: 'Beneficiaries' },
  { id: 'payouts', label: 'Payouts' },
  { id: 'settlements', label: 'Settlements' },
  { id: 'settings', label: 'Settings' },
] as const;

type SectionId = (typeof SECTIONS)[number]['id'];

export function App() {
  const load = useAppInfo((store) => store.load);
  const [section, setSection] = useState<SectionId | null>(null);

  useEffect(() => {
    void load();
  }, [load]);

  return (
    <div className="frame">
      <nav className="sidebar" aria-label="Sections">
        <div className="brand">Payout Console</div>
        <ul>
          {SECTIONS.map(({ id, label }) => (
            <li key={id}>
              <button
                type="button"
                className="nav-item"
                aria-current={section === id ? 'page' : undefined}
                onClick={() => setSection(id)}
              >
                {label}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <main className="content">
        <WelcomePanel />
      </main>
      <StatusBar />
    </div>
  );
}
