import { useId, useRef, useState, type KeyboardEvent } from 'react';
import type { IpcOutput } from '../../shared/ipc/contract';
import { useHeadroomAlert } from './accounts/headroom-alert';
import { ApprovalsIndicator } from './approvals/ApprovalsIndicator';
import { EnvironmentBadge } from './EnvironmentBadge';
import { DeskIndicator } from './exceptions/DeskLine';
import { useWatchAlert } from './payouts/watch-alert';
import { useAppInfo, useCacheStatus, useConnectivity } from './query/app-queries';
import { formatIstInstant } from '../../shared/format';
import { asSentence } from '../../shared/messages';
import './status-bar.css';

export type CacheStatus = IpcOutput<'cache.status'>;

type Connectivity = ReturnType<typeof useConnectivity>;

/** The connectivity indicator's tone and words. */
export function connectivityText(state: Connectivity): [tone: string, text: string] {
  const since = state?.since ? ` since ${formatIstInstant(state.since)}` : '';
  return state === null || state.state === 'unknown'
    ? ['unknown', 'Not contacted yet']
    : state.state === 'online'
      ? ['online', `Online${since}`]
      : ['offline', `Offline${since}: ${asSentence(state.reason ?? 'the service could not be reached')}`];
}

/** The bar keeps "Offline since …" short; the reason is one of the alerts behind the count. */
function ConnectivityIndicator() {
  const state = useConnectivity();
  const [tone, text] = connectivityText(state);
  const short = state?.state === 'offline' ? text.slice(0, text.indexOf(': ')) : text;
  return (
    <span className={`connectivity connectivity-${tone}`} role="status" data-testid="connectivity" title={text}>
      <span className="dot" aria-hidden="true" />
      {short}
    </span>
  );
}

interface StatusAlert {
  id: string;
  tone: 'error' | 'accent';
  text: string;
}

/** What needs the desk's eye on any screen: low headroom, the watch list's news, why the service is unreachable. */
function useStatusAlerts(): StatusAlert[] {
  const connectivity = useConnectivity();
  const headroom = useHeadroomAlert();
  const watch = useWatchAlert();
  const alerts: StatusAlert[] = [];
  if (headroom) alerts.push({ id: 'headroom-alert', tone: 'error', text: headroom });
  if (watch) alerts.push({ id: 'watch-news', tone: watch.overdue ? 'error' : 'accent', text: watch.text });
  if (connectivity?.state === 'offline') {
    alerts.push({ id: 'offline-reason', tone: 'error', text: connectivityText(connectivity)[1] });
  }
  return alerts;
}

/**
 * The alerts behind one count, so the bar stays one line whatever is active (three alerts once wrapped it to three
 * lines and cut the sync and balance times). The count is a polite live region; the button opens the list above the bar,
 * and Escape closes it back onto the button.
 */
function StatusAlerts() {
  const alerts = useStatusAlerts();
  const [open, setOpen] = useState(false);
  const listId = useId();
  const button = useRef<HTMLButtonElement>(null);
  if (alerts.length === 0) return null;
  const tone = alerts.some((a) => a.tone === 'error') ? 'error' : 'accent';
  const close = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !open) return;
    event.stopPropagation();
    setOpen(false);
    button.current?.focus();
  };
  return (
    <span className="status-alerts" onKeyDown={close}>
      <button
        ref={button}
        type="button"
        className={`status-alerts-button status-alerts-${tone}`}
        aria-expanded={open}
        aria-controls={listId}
        aria-live="polite"
        onClick={() => setOpen(!open)}
      >
        {alerts.length} {alerts.length === 1 ? 'alert' : 'alerts'}
      </button>
      {open && (
        <ul id={listId} className="status-alerts-list" aria-label="Alerts">
          {alerts.map((a) => (
            <li key={a.id} className={`status-alert status-alerts-${a.tone}`} data-testid={a.id}>
              {a.text}
            </li>
          ))}
        </ul>
      )}
    </span>
  );
}

export function syncedText({ settlementsSyncedAt, balancesAt }: CacheStatus): string {
  const balances = balancesAt ? `balances ${formatIstInstant(balancesAt)}` : 'balances not fetched yet';
  if (settlementsSyncedAt === null) {
    return balancesAt ? `Settlements not synced yet · ${balances}` : 'Settlements not synced yet';
  }
  return `Last synced: settlements ${formatIstInstant(settlementsSyncedAt)} · ${balances}`;
}

/** Quiet on purpose: the environment badge stays the loudest thing in the bar. */
function LastSynced() {
  const status = useCacheStatus();
  if (status.isPending) return null;
  if (status.isError) {
    const text = `Last synced: unknown. ${status.error.message}`;
    return (
      <span className="last-synced last-synced-failed" title={text}>
        {text}
      </span>
    );
  }
  const text = syncedText(status.data);
  return (
    <span className="last-synced muted" title={text}>
      {text}
    </span>
  );
}

export function StatusBar() {
  const info = useAppInfo();
  const profile = info.data?.profile;

  return (
    <footer className={`status-bar${profile?.environment === 'production' ? ' status-production' : ''}`}>
      {profile ? (
        <>
          <EnvironmentBadge environment={profile.environment} />
          <span className="status-profile">
            <span className="sr-only">Active profile: </span>
            {profile.name}
          </span>
          <span className="mono muted status-address">{profile.baseUrl}</span>
        </>
      ) : (
        <span className="muted">{info.isPending ? 'Connecting…' : 'No active profile'}</span>
      )}
      <span className="spacer" />
      {profile && <StatusAlerts />}
      {profile && <ApprovalsIndicator />}
      {profile && <DeskIndicator />}
      {profile && <LastSynced />}
      <ConnectivityIndicator />
      {info.data && <span className="mono muted">v{info.data.appVersion}</span>}
    </footer>
  );
}
