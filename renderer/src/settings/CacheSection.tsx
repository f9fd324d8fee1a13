import { useEffect, useId, useState } from 'react';
import { ConfirmDialog } from '../ConfirmDialog';
import { EnvironmentBadge } from '../EnvironmentBadge';
import { AsOf } from '../ui/AsOf';
import { ErrorNotice, Skeleton } from '../ui/states';
import { formatBytes, formatExactBytes } from './bytes';
import { useCaches, type CacheEntry } from './cache-store';
import { useSettings, type Profile } from './settings-store';

function ClearOutcome({ profileId }: { profileId: string }) {
  const clear = useCaches((s) => s.clears[profileId]);
  if (clear?.status === 'failed') return <ErrorNotice error={clear.error} />;
  return (
    <p className="cache-outcome" role="status">
      {clear?.status === 'ready' &&
        (clear.value.cleared
          ? `Cleared: ${formatBytes(clear.value.freedBytes)} freed.`
          : 'There was nothing to clear.')}
    </p>
  );
}

/** The file under the data folder shown above it ("cache/…sqlite"); the whole path is in the tooltip. */
function withinDataDir(file: string, dataDir: string): string {
  return file.startsWith(dataDir) ? file.slice(dataDir.length).replace(/^[\\/]+/, '') : file;
}

interface CacheRowProps {
  entry: CacheEntry;
  profile: Profile | undefined;
  dataDir: string;
}

function CacheRow({ entry, profile, dataDir }: CacheRowProps) {
  const clear = useCaches((s) => s.clear);
  const clearing = useCaches((s) => s.clears[entry.profileId]?.status === 'loading');
  const [confirming, setConfirming] = useState(false);
  const nameId = useId();
  // A profile created a moment ago can be in the sizes before it is in the profile list.
  const name = profile?.name ?? entry.profileId;
  const size = formatBytes(entry.sizeBytes);
  const empty = entry.sizeBytes === 0;

  return (
    <li className="cache-row" aria-labelledby={nameId}>
      <span className="cache-profile">
        <span id={nameId}>{name}</span>
        {profile && <EnvironmentBadge environment={profile.environment} />}
      </span>
      <span className="mono muted cache-file" title={entry.file}>
        {withinDataDir(entry.file, dataDir)}
      </span>
      <span className={`cache-size${empty ? ' muted' : ''}`} title={formatExactBytes(entry.sizeBytes)}>
        {empty ? 'Nothing cached' : size}
      </span>
      <button
        type="button"
        className="button button-quiet-danger"
        disabled={empty || clearing}
        onClick={() => setConfirming(true)}
      >
        {clearing ? 'Clearing…' : 'Clear cache…'}
      </button>
      <div className="cache-row-outcome">
        <ClearOutcome profileId={entry.profileId} />
      </div>
      {confirming && (
        <ConfirmDialog
          title={`Clear the cache of “${name}”?`}
          confirmLabel="Clear cache"
          onConfirm={() => {
            setConfirming(false);
            void clear(entry.profileId);
          }}
          onCancel={() => setConfirming(false)}
        >
          <p>
            Delete the cached settlements, beneficiaries, payout lookups and balances of {name} ({size})? Its audit
            journal and closed periods are kept. The service keeps its data; you can sync again.
          </p>
        </ConfirmDialog>
      )}
    </li>
  );
}

/** Where the console keeps its files, and each profile's cache: how big it is, and clearing it. */
export function CacheSection() {
  const list = useCaches((s) => s.list);
  const readAt = useCaches((s) => s.readAt);
  const load = useCaches((s) => s.load);
  const follow = useCaches((s) => s.follow);
  const profiles = useSettings((s) => s.list);
  const byId = new Map(profiles.status === 'ready' ? profiles.value.profiles.map((p) => [p.id, p]) : []);
  // Adding or removing a profile changes which caches there are.
  const profileIds = [...byId.keys()].join(' ');

  useEffect(() => follow(), [follow]);
  useEffect(() => {
    void load();
  }, [load, profileIds]);

  return (
    <section className="settings-section data-section" aria-labelledby="data-title">
      <div className="section-head">
        <div>
          <h2 id="data-title">Data</h2>
          <p className="muted">
            What the console keeps on this computer: its settings and, per profile, a cache of what it fetched, so the
            screens work offline. Clearing a cache deletes only this computer&rsquo;s copy.
          </p>
        </div>
        {list.status === 'ready' && <AsOf at={readAt} label="Sizes as of" />}
      </div>
      {list.status === 'loading' && <Skeleton rows={3} label="Reading cache sizes" />}
      {list.status === 'failed' && <ErrorNotice error={list.error} onRetry={() => void load()} />}
      {list.status === 'ready' && (
        <>
          <dl className="data-facts">
            <dt className="fact-label">Data folder</dt>
            <dd className="mono data-folder">{list.value.dataDir}</dd>
          </dl>
          <ul className="cache-list" aria-label="Cache per profile">
            {list.value.caches.map((entry) => (
              <CacheRow
                key={entry.profileId}
                entry={entry}
                profile={byId.get(entry.profileId)}
                dataDir={list.value.dataDir}
              />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
