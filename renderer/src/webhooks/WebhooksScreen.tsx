import { useState } from 'react';
import type { UpdatedWebhook } from '../../../shared/webhooks';
import { loadableOf } from '../query/ipc-query';
import { OfflineBanner } from '../ui/OfflineBanner';
import { useOfflineReason } from '../ui/offline';
import { PageHeader } from '../ui/PageHeader';
import { EmptyState, ErrorNotice, Skeleton } from '../ui/states';
import { formatIstInstant } from '../ui/format';
import { WebhookEditor } from './WebhookEditor';
import { useWebhooks } from './webhooks-queries';
import '../tools/tools.css';
import './webhooks.css';

const FILTERS = [
  ['all', 'All', undefined],
  ['active', 'Active', true],
  ['inactive', 'Inactive', false],
] as const;

/** The merchant's webhook endpoints: the list with the active filter, and an editor for one. */
export function WebhooksScreen() {
  const [filter, setFilter] = useState<(typeof FILTERS)[number][0]>('all');
  const [selected, setSelected] = useState<string | null>(null);
  const [answer, setAnswer] = useState<UpdatedWebhook | null>(null);
  const query = useWebhooks(FILTERS.find((f) => f[0] === filter)![2]);
  const list = loadableOf(query);
  const offline = useOfflineReason();
  const hook = list.status === 'ready' ? (list.value.endpoints.find((h) => h.id === selected) ?? null) : null;

  return (
    <div className="screen tools-screen">
      <OfflineBanner />
      <PageHeader title="Webhooks">
        <button
          type="button"
          className="button"
          disabled={offline !== null}
          title={offline ?? undefined}
          onClick={() => void query.refetch()}
        >
          Refresh
        </button>
      </PageHeader>
      <section className="tools-panel" aria-labelledby="webhooks-list-title">
        <div className="tools-row">
          <h2 id="webhooks-list-title">Endpoints</h2>
          <span className="spacer" />
          <div role="radiogroup" aria-label="Show" className="webhooks-filter">
            {FILTERS.map(([value, label]) => (
              <label key={value} className="webhooks-check">
                <input
                  type="radio"
                  name="webhooks-filter"
                  checked={filter === value}
                  onChange={() => setFilter(value)}
                />
                {label}
              </label>
            ))}
          </div>
        </div>
        {list.status === 'loading' && <Skeleton rows={3} label="Loading webhooks" />}
        {list.status === 'failed' && <ErrorNotice error={list.error} onRetry={() => void query.refetch()} />}
        {list.status === 'ready' &&
          (list.value.endpoints.length === 0 ? (
            <EmptyState title="No webhooks">None matches this filter.</EmptyState>
          ) : (
            <table className="tools-table" aria-label="Webhook endpoints">
              <thead>
                <tr>
                  <th>Id</th>
                  <th>Status</th>
                  <th>URL</th>
                  <th>Topics</th>
                  <th>Created</th>
                  <th>
                    <span className="sr-only">Edit</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.value.endpoints.map((h) => (
                  <tr key={h.id} aria-selected={h.id === selected}>
                    <td className="mono">{h.id}</td>
                    <td>
                      <span className={`tag${h.status === 'active' ? ' tag-active' : ''}`}>{h.status}</span>
                    </td>
                    <td className="mono tools-link">{h.url}</td>
                    <td className="mono">{h.topics.join(', ')}</td>
                    <td>{h.created_at ? formatIstInstant(h.created_at) : '—'}</td>
                    <td>
                      <button
                        type="button"
                        className="button"
                        onClick={() => {
                          setSelected(h.id);
                          setAnswer(null);
                        }}
                      >
                        Edit
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ))}
      </section>
      {answer && (
        <div className="notice" role="status" aria-label="Service answer">
          {answer.endpoint ? (
            <>
              The service answered: <span className="mono">{answer.endpoint.id}</span> is now{' '}
              <strong>{answer.endpoint.status}</strong> at <span className="mono">{answer.endpoint.url}</span> for{' '}
              <span className="mono">{answer.endpoint.topics.join(', ')}</span>.
            </>
          ) : (
            <>The service took the change{answer.message ? `: ${answer.message}` : ''}; the list is read again.</>
          )}
        </div>
      )}
      {hook && (
        <WebhookEditor
          key={`${hook.id}:${hook.url}:${hook.status}:${hook.topics.join()}`}
          hook={hook}
          onDone={(a) => setAnswer(a)}
        />
      )}
    </div>
  );
}
