import { useState } from 'react';
import { loadableOf } from '../query/ipc-query';
import { PayoutSettingsSection } from '../payouts/PayoutSettingsSection';
import { PageHeader } from '../ui/PageHeader';
import { ErrorNotice, Skeleton } from '../ui/states';
import { CacheSection } from './CacheSection';
import { ExcelCsvSection } from '../exports/ExcelCsvSection';
import { ApprovalPolicySection } from '../approvals/ApprovalPolicySection';
import { TallyLedgersSection } from '../reconciliation/TallyLedgersSection';
import '../approvals/approvals.css';
import { ProfileCard } from './ProfileCard';
import { ProfileForm } from './ProfileForm';
import { useProfiles } from './settings-queries';
import './settings.css';

export function SettingsScreen() {
  const query = useProfiles();
  const list = loadableOf(query);
  const [adding, setAdding] = useState(false);

  return (
    <div className="screen">
      <PageHeader title="Settings" />
      <section className="settings-section" aria-labelledby="profiles-title">
        <div className="section-head">
          <div>
            <h2 id="profiles-title">Profiles and credentials</h2>
            <p className="muted">
              Which service the console calls, and as which merchant. Secrets live only in the OS keychain: set,
              replace, test or delete them here; they are never shown.
            </p>
          </div>
          <button type="button" className="button button-primary" onClick={() => setAdding(true)} disabled={adding}>
            Add profile
          </button>
        </div>
        {adding && (
          <section className="profile-card profile-new" aria-labelledby="new-profile-title">
            <h3 id="new-profile-title">New profile</h3>
            <ProfileForm onDone={() => setAdding(false)} />
          </section>
        )}
        {list.status === 'loading' && <Skeleton rows={3} label="Loading profiles" />}
        {list.status === 'failed' && (
          <ErrorNotice
            error={{ ...list.error, message: `The profiles could not be read: ${list.error.message}` }}
            onRetry={() => void query.refetch()}
          />
        )}
        {list.status === 'ready' && (
          <div className="profile-list">
            {list.value.profiles.map((p) => (
              <ProfileCard key={p.id} profile={p} active={p.id === list.value.activeId} />
            ))}
          </div>
        )}
      </section>
      <CacheSection />
      <PayoutSettingsSection />
      <TallyLedgersSection />
      <ExcelCsvSection />
      <ApprovalPolicySection />
    </div>
  );
}
