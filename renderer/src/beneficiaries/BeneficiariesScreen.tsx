import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ipcErrorOf, loadableOf, resultOf } from '../query/ipc-query';
import { useOfflineReason } from '../ui/offline';
import { PageHeader } from '../ui/PageHeader';
import type { CachedBeneficiary } from '../../../shared/beneficiaries';
import { AsOf } from '../ui/AsOf';
import { OfflineBanner } from '../ui/OfflineBanner';
import { EmptyState, ErrorNotice, Skeleton } from '../ui/states';
import { useFindShortcut } from '../ui/use-find-shortcut';
import { AddBeneficiaryForm } from './AddBeneficiaryForm';
import { addedText } from './beneficiary-form';
import { useBeneficiaryFetch, useBeneficiaryList } from './beneficiaries-queries';
import { useBeneficiariesUi } from './beneficiaries-store';
import { BeneficiaryDetail } from './BeneficiaryDetail';
import { BENEFICIARY_TABLE, BeneficiaryTable } from './BeneficiaryTable';
import { listSortOf } from '../../../shared/exports';
import { SavedViewsMenu } from '../ui/SavedViewsMenu';
import { currentViewName, useSavedViews, type ViewBinding } from '../ui/saved-views';
import { tableSortOf, useTableSorts } from '../ui/table-sorts';
import { ImportPanel } from './ImportPanel';
import './beneficiaries.css';
import { ExportButtons, ExportStatus } from '../exports/ExportControls';

const SEARCH_DEBOUNCE_MS = 150;
const FIND_KEYS = /Mac/.test(navigator.userAgent) ? '⌘F' : 'Ctrl+F';

/** Pulls one beneficiary from the service into the cache, by the id the service gave it. */
function FetchById({ onFetched }: { onFetched(b: CachedBeneficiary): void }) {
  const fetch = useBeneficiaryFetch();
  const offline = useOfflineReason();
  const [id, setId] = useState('');
  const busy = fetch.isPending;
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const wanted = id.trim();
    if (!wanted) {
      setError('Type the id the service gave the beneficiary, such as bene_…');
      return;
    }
    const result = await resultOf(fetch.mutateAsync({ id: wanted }));
    setError(result.ok ? null : result.error.message);
    if (result.ok) {
      setId('');
      onFetched(result.value);
    }
  }

  return (
    <form className="bene-fetch" onSubmit={submit} noValidate aria-busy={busy}>
      <label htmlFor={inputId}>Fetch by id</label>
      <input
        id={inputId}
        className="input mono"
        value={id}
        placeholder="bene_…"
        spellCheck={false}
        autoComplete="off"
        aria-invalid={error !== null}
        aria-describedby={error ? `${inputId}-error` : undefined}
        onChange={(e) => {
          setId(e.target.value);
          setError(null);
        }}
      />
      <button type="submit" className="button" disabled={busy || offline !== null} title={offline ?? undefined}>
        {busy ? 'Fetching…' : 'Fetch'}
      </button>
      {error && (
        <p id={`${inputId}-error`} className="field-error bene-fetch-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

/** A saved view of the list: the search, "bank details changed", the sort (and, by the menu, the columns). */
const beneficiaryViews: ViewBinding = {
  current() {
    const { search, changedOnly } = useBeneficiariesUi.getState();
    return { filters: { search, changedOnly }, sort: tableSortOf(BENEFICIARY_TABLE) };
  },
  apply(state) {
    const { search, changedOnly } = state.filters;
    useBeneficiariesUi.getState().setSearch(typeof search === 'string' ? search.slice(0, 200) : '');
    useBeneficiariesUi.getState().setChangedOnly(changedOnly === true);
    useTableSorts.getState().set(BENEFICIARY_TABLE, state.sort);
  },
};

export function BeneficiariesScreen() {
  const search = useBeneficiariesUi((s) => s.search);
  const changedOnly = useBeneficiariesUi((s) => s.changedOnly);
  const chosenId = useBeneficiariesUi((s) => s.selectedId);
  const detailOpen = useBeneficiariesUi((s) => s.detailOpen);
  const { setSearch, setChangedOnly, select, closeDetail } = useBeneficiariesUi.getState();
  const listQuery = useBeneficiaryList(search, changedOnly);
  const list = loadableOf(listQuery);
  const [query, setQuery] = useState(search);
  // Set from elsewhere (a saved view): the box follows.
  const [seen, setSeen] = useState(search);
  if (seen !== search) {
    setSeen(search);
    if (search !== query) setQuery(search);
  }
  useTableSorts((s) => s.sorts[BENEFICIARY_TABLE]);
  const views = useSavedViews(BENEFICIARY_TABLE, beneficiaryViews);
  const [adding, setAdding] = useState(false);
  const [importing, setImporting] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  /** A row to give focus to once it is rendered: one just added or fetched, or the one whose detail closed. */
  const focusRow = useRef<string | null>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const searchId = useId();
  const listRef = useRef<HTMLElement>(null);
  useFindShortcut(searchRef);

  // A changed search is applied once typing pauses.
  useEffect(() => {
    if (query === search) return;
    const timer = setTimeout(() => setSearch(query), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [query, search, setSearch]);

  useEffect(() => {
    if (focusRow.current === null) return;
    const row = listRef.current?.querySelector<HTMLElement>(`tr[data-id="${CSS.escape(focusRow.current)}"]`);
    if (!row) return;
    focusRow.current = null;
    row.focus();
    row.scrollIntoView({ block: 'nearest' });
  });

  const rows = list.status === 'ready' ? list.value.pages.flatMap((p) => p.rows) : [];
  const nextCursor = list.status === 'ready' ? (list.value.pages.at(-1)?.nextCursor ?? null) : null;
  // The chosen row while the list holds it; else the first, so the keyboard always has a row to start from.
  const kept = rows.find((r) => r.beneficiary_id === chosenId) ?? null;
  const selected = kept ?? rows[0] ?? null;
  const selectedId = selected?.beneficiary_id ?? null;
  const showDetail = detailOpen && kept !== null;
  const newest = rows.reduce<string | null>((max, r) => (max === null || r.fetchedAt > max ? r.fetchedAt : max), null);

  function arrived(b: CachedBeneficiary, message: string) {
    setNotice(message);
    select(b.beneficiary_id, true);
    focusRow.current = b.beneficiary_id;
  }

  return (
    <div className="bene-screen">
      <PageHeader title="Beneficiaries" skipTo="the beneficiary list">
        <SavedViewsMenu table={BENEFICIARY_TABLE} binding={beneficiaryViews} views={views} />
        <ExportButtons
          kind="beneficiaries"
          request={(format) => {
            const sort = listSortOf('beneficiaries', tableSortOf(BENEFICIARY_TABLE));
            const view = currentViewName(
              BENEFICIARY_TABLE,
              beneficiaryViews,
              views.list.data?.views,
              views.appliedName,
            );
            // What the list shows: the export holds the same rows (search and "bank details changed" included).
            const { search: text, changedOnly: changed } = useBeneficiariesUi.getState();
            const filter = { ...(text.trim() ? { search: text.trim() } : {}), ...(changed ? { changed } : {}) };
            return {
              kind: 'beneficiaries',
              format,
              ...(Object.keys(filter).length > 0 ? { filter } : {}),
              ...(sort ? { sort } : {}),
              ...(view ? { view } : {}),
            };
          }}
        />
        <button type="button" className="button" onClick={() => setImporting(true)} disabled={importing}>
          Import…
        </button>
        <button type="button" className="button button-primary" onClick={() => setAdding(true)} disabled={adding}>
          Add beneficiary
        </button>
      </PageHeader>
      <p className="muted bene-intro">
        The service keeps no list of beneficiaries, so this is every one this console added or fetched for the active
        profile, kept for search and offline review.
      </p>
      <OfflineBanner />
      <ExportStatus kind="beneficiaries" />
      {notice && (
        <div className="notice bene-notice-ok" role="status">
          <span>{notice}</span>
          <button type="button" className="button" onClick={() => setNotice(null)}>
            Dismiss
          </button>
        </div>
      )}
      {importing && <ImportPanel onClose={() => setImporting(false)} />}
      {adding && (
        <AddBeneficiaryForm
          onCreated={(b) => {
            setAdding(false);
            arrived(b, addedText(b));
          }}
          onCancel={() => setAdding(false)}
        />
      )}
      <div className="bene-toolbar">
        <div className="bene-search">
          <label htmlFor={searchId}>Search</label>
          <input
            ref={searchRef}
            id={searchId}
            type="search"
            className="input"
            value={query}
            placeholder="Name, id, UPI address, account, email or phone"
            spellCheck={false}
            autoComplete="off"
            aria-keyshortcuts="/ Control+F Meta+F"
            data-search
            onChange={(e) => setQuery(e.target.value)}
            // Leaving the box applies what it holds at once: a view saved or picked next must not race the pause.
            onBlur={() => {
              if (query !== search) setSearch(query);
            }}
          />
          <kbd className="muted">{FIND_KEYS}</kbd>
        </div>
        <label className="bene-changed-filter">
          <input type="checkbox" checked={changedOnly} onChange={(e) => setChangedOnly(e.target.checked)} />
          Bank details changed
        </label>
        <FetchById onFetched={(b) => arrived(b, `Fetched ${b.name} (${b.beneficiary_id}) from the service.`)} />
      </div>
      <div className={`bene-layout${showDetail ? ' bene-with-detail' : ''}`}>
        <section className="bene-list" aria-label="Beneficiary list" ref={listRef}>
          <div className="bene-list-meta">
            <AsOf at={newest} label="Newest fetch" />
          </div>
          {list.status === 'loading' && <Skeleton rows={5} label="Loading beneficiaries" />}
          {list.status === 'failed' && <ErrorNotice error={list.error} onRetry={() => void listQuery.refetch()} />}
          {list.status === 'ready' && rows.length === 0 && changedOnly && (
            <EmptyState title="No payee’s bank details have changed">
              A fetch that finds another account, IFSC or UPI address than the cached one lists the payee here.
            </EmptyState>
          )}
          {list.status === 'ready' && rows.length === 0 && !changedOnly && !search.trim() && (
            <EmptyState title="No beneficiaries cached yet">
              Add a beneficiary, or fetch one by the id the service gave it; both are kept here for search and offline
              review.
            </EmptyState>
          )}
          {list.status === 'ready' && rows.length === 0 && !changedOnly && search.trim() && (
            <EmptyState title={`No cached beneficiary matches “${search.trim()}”`}>
              Search looks in names, ids, UPI addresses, account numbers, emails and phones. A beneficiary this console
              never saw can be fetched by its id.
            </EmptyState>
          )}
          {rows.length > 0 && (
            <>
              <BeneficiaryTable rows={rows} selectedId={selectedId} onSelect={select} onEscape={closeDetail} />
              <div className="bene-list-foot">
                <span className="muted">
                  {rows.length} {rows.length === 1 ? 'beneficiary' : 'beneficiaries'}
                  {search.trim() ? ` matching “${search.trim()}”` : ''}
                  {list.status === 'ready' && nextCursor === null ? ', all shown' : ''}
                </span>
                {nextCursor !== null && (
                  <button
                    type="button"
                    className="button"
                    onClick={() => void listQuery.fetchNextPage()}
                    disabled={listQuery.isFetchingNextPage}
                  >
                    {listQuery.isFetchingNextPage ? 'Loading…' : 'Load more'}
                  </button>
                )}
              </div>
              {listQuery.isFetchNextPageError && (
                <ErrorNotice error={ipcErrorOf(listQuery.error)} onRetry={() => void listQuery.fetchNextPage()} />
              )}
            </>
          )}
        </section>
        {showDetail && kept && (
          <BeneficiaryDetail
            key={kept.beneficiary_id}
            beneficiary={kept}
            onClose={() => {
              closeDetail();
              focusRow.current = kept.beneficiary_id;
            }}
          />
        )}
      </div>
    </div>
  );
}
