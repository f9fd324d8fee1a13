import { useState } from 'react';
import { loadableOf } from '../query/ipc-query';
import { PageHeader } from '../ui/PageHeader';
import { useAppInfo } from '../query/app-queries';
import { CacheSection } from './CacheSection';
import { ProfileCard } from './ProfileCard';
import { ProfileForm } from './ProfileForm';
import { useProfiles } from './settings-queries';
import './settings.css';

function RecoveredSettingsNotice() {
  const info = useAppInfo();
  if (!info.data || info.data.settingsRecoveredFrom === null) return null;
  return (
    <p className="notice notice-warning" role="alert">
      <strong>The settings file could not be read</strong>, so the console started with the built-in profile only. The
      unreadable file was kept at <span className="mono">{info.data.settingsRecoveredFrom}</span>.
    </p>
  );
}

export function SettingsScreen() {
  const query = useProfiles();
  const list = loadableOf(query);
  const [adding, setAdding] = useState(false);

  return (
    <div className="screen">
      <PageHeader title="Settings" />
      <RecoveredSettingsNotice />
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
        {list.status === 'loading' && <p className="muted">Loading profiles…</p>}
        {list.status === 'failed' && (
          <p className="notice notice-error" role="alert">
            The profiles could not be read: {list.error.message}{' '}
            <button type="button" className="button" onClick={() => void query.refetch()}>
              Try again
            </button>
          </p>
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
    </div>
  );
}
