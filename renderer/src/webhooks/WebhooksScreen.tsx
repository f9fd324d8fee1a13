import { useState } from 'react';
import { z } from 'zod';
import type { UpdatedWebhook, WebhookRecord } from '../../../shared/webhooks';
import { loadableOf } from '../query/ipc-query';
import { DataTable, type DataColumn, type TableState } from '../ui/DataTable';
import { OfflineBanner } from '../ui/OfflineBanner';
import { useOfflineReason } from '../ui/offline';
import { PageHeader } from '../ui/PageHeader';
import { SavedViewsMenu } from '../ui/SavedViewsMenu';
import { formatIstInstant } from '../../../shared/format';
import { useTableSort } from '../ui/table-sorts';
import { useTableViews } from '../ui/table-views';
import { WebhookEditor } from './WebhookEditor';
import { useWebhooks } from './webhooks-queries';
import '../tools/tools.css';
import './webhooks.css';

/** The endpoints' table: its columns, sort, filter and saved views are kept under this id. */
const TABLE = 'webhooks';
const SHOWS = ['active', 'inactive'] as const;
/** `show`: only active or only inactive endpoints (the service's own filter); absent, all. */
const FILTERS = { show: z.enum(SHOWS) };

const COLUMNS: readonly DataColumn<WebhookRecord>[] = [
  { id: 'id', label: 'Id', mono: true, cell: (h) => h.id, sortValue: (h) => h.id },
  {
    id: 'status',
    label: 'Status',
    optional: true,
    cell: (h) => <span className={`tag${h.status === 'active' ? ' tag-active' : ''}`}>{h.status}</span>,
    sortValue: (h) => h.status,
  },
  { id: 'url', label: 'URL', mono: true, optional: true, cell: (h) => h.url, sortValue: (h) => h.url },
  {
    id: 'topics',
    label: 'Topics',
    mono: true,
    optional: true,
    cell: (h) => h.topics.join(', '),
    sortValue: (h) => h.topics.join(', '),
  },
  {
    id: 'created',
    label: 'Created',
    optional: true,
    cell: (h) => (h.created_at ? formatIstInstant(h.created_at) : '—'),
    sortValue: (h) => h.created_at ?? null,
  },
];

/** The merchant's webhook endpoints: the list with the active filter, and an editor for one. */
export function WebhooksScreen() {
  const views = useTableViews(TABLE, FILTERS);
  const show = views.filters['show'] as (typeof SHOWS)[number] | undefined;
  const [sort, setSort] = useTableSort(TABLE);
  const [selected, setSelected] = useState<string | null>(null);
  const [answer, setAnswer] = useState<UpdatedWebhook | null>(null);
  const query = useWebhooks(show === undefined ? undefined : show === 'active');
  const list = loadableOf(query);
  const offline = useOfflineReason();
  const rows = list.status === 'ready' ? list.value.endpoints : [];
  const hook = rows.find((h) => h.id === selected) ?? null;
  const state: TableState =
    list.status === 'loading'
      ? { kind: 'loading', label: 'Loading webhooks' }
      : list.status === 'failed'
        ? { kind: 'error', error: list.error, retry: () => void query.refetch() }
        : rows.length === 0
          ? { kind: 'empty', title: 'No webhooks', children: 'None matches this filter.' }
          : { kind: 'ready' };
  const edit = (h: WebhookRecord) => {
    setSelected(h.id);
    setAnswer(null);
  };

  return (
    <div className="screen tools-screen">
      <OfflineBanner />
      <PageHeader title="Webhooks" skipTo="the webhook endpoints">
        <SavedViewsMenu {...views.menu} />
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
        <h2 id="webhooks-list-title">Endpoints</h2>
        <DataTable
          id={TABLE}
          label="Webhook endpoints"
          columns={[
            ...COLUMNS,
            {
              id: 'edit',
              label: 'Edit',
              cell: (h) => (
                <button type="button" className="button" tabIndex={-1} onClick={() => edit(h)}>
                  Edit
                </button>
              ),
            },
          ]}
          rows={rows}
          rowKey={(h) => h.id}
          state={state}
          sort={sort}
          onSort={setSort}
          currentKey={selected}
          onOpen={edit}
          filters={
            <div role="radiogroup" aria-label="Show" className="webhooks-filter">
              {([undefined, ...SHOWS] as const).map((value) => (
                <label key={value ?? 'all'} className="webhooks-check">
                  <input
                    type="radio"
                    name="webhooks-filter"
                    checked={show === value}
                    onChange={() => views.setFilter('show', value)}
                  />
                  {value === undefined ? 'All' : value === 'active' ? 'Active' : 'Inactive'}
                </label>
              ))}
            </div>
          }
        />
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
