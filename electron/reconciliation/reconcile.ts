/**
 * Bank reconciliation on a profile's cache (local mode; service.ts chooses the mode): import a statement file into
 * a bank account, match a period's batches to its credits, match and unmatch by hand, and report every batch and
 * credit with its state. Reading a statement, proposing matches and the report work on a ReconView, the cache's or
 * a desk's (desk-view.ts), so both modes share them. Batches come from the cache's roll-up (cache/reconciliation.ts);
 * nothing here calls the API.
 */
import {
  BATCH_STATES,
  BATCH_STATE_LABELS,
  CREDIT_STATES,
  CREDIT_STATE_LABELS,
  autoMatch,
  batchKeyText,
  lateDays,
  matchedState,
  unmatchedBatchState,
  type BatchKey,
  type MatchCredit,
  type ReconBatch,
  type ReconCredit,
  type ReconReport,
  type ReconSettings,
  type ReconStatement,
  type StateTotal,
} from '../../shared/bank-matching';
import {
  cellText,
  detectLayout,
  findHeaderRow,
  mappingFits,
  proveComplete,
  readStatementRows,
  type BadStatementRow,
  type ColumnMapping,
  type CompletenessProof,
  type StatementLineIn,
} from '../../shared/bank-statement';
import { formatCalendarDate, formatIstWallClock } from '../../shared/format';
import { formatMoney, sumMinor } from '../../shared/money';
import { addDays } from '../../shared/time';
import type { Cache } from '../cache/database';
import type { BankAccount, BatchRow, StoredLine, StoredMatch } from '../cache/reconciliation';
import { readTable, type StatementRead, type TableKind } from '../import/sheet-reader';
import type { Journal } from '../journal/journal';

/** Input the desk can correct (a file with no recognisable header, an unknown account, a wrong match). */
export class ReconInputError extends Error {
  override name = 'ReconInputError';
  /** Crosses IPC as this code with the message (ipc/router.ts). */
  readonly code = 'RECON_INPUT';
}

/** Statements longer than this are not one account's period; refused before anything is stored. */
export const STATEMENT_MAX_LINES = 200_000;

export interface StatementImportResult {
  account: { id: number; name: string };
  fileName: string;
  kind: TableKind;
  layout: string;
  mapping: ColumnMapping;
  lines: number;
  added: number;
  duplicates: number;
  credits: number;
  debits: number;
  from: string | null;
  to: string | null;
  bad: BadStatementRow[];
  /** Rows read as the statement's own summary, totals or footer, not as lines. */
  summaryRows: number[];
  proof: CompletenessProof;
}

/** How a statement file is read: its PDF password if any, and its header told by the saved mapping or a layout. */
function statementRead(saved: ColumnMapping | null, password: string | undefined): StatementRead {
  const isHeader = (cells: string[]) => (saved !== null && mappingFits(saved, cells)) || detectLayout(cells) !== null;
  return password === undefined ? { isHeader } : { isHeader, password };
}

/**
 * Where a statement read stops: the header is in the first PREVIEW_ROWS rows, so a file with more non-blank rows than
 * this has more than STATEMENT_MAX_LINES lines whatever its header; the exact count is checked after the header.
 */
const statementRowLimit = (fileName: string) => ({
  maxRows: STATEMENT_MAX_LINES + PREVIEW_ROWS,
  rowsSentence: `${fileName} has more than ${STATEMENT_MAX_LINES} rows; import at most ${STATEMENT_MAX_LINES} at a time.`,
});

/** Rows of a file shown by the column-mapping step: the header is looked for in as many (findHeaderRow). */
export const PREVIEW_ROWS = 30;
/** A preview cell is cut here: it is for recognising a column, not for reading a narration whole. */
const PREVIEW_CELL_CHARS = 60;

export interface StatementPreview {
  fileName: string;
  /** The file's first non-empty rows, each with its row number in the file, cells as the text they show. */
  rows: { n: number; cells: string[] }[];
  /** The header row found (its position in `rows`) by the account's saved mapping or a known layout; else null. */
  header: { index: number; layout: string; mapping: ColumnMapping } | null;
}

/**
 * The first rows of a statement file and the mapping the import would use (the account's saved one when its
 * headers are there, else a recognised layout's), for the desk to check or change before importing. Stores nothing.
 */
export async function previewStatement(
  cache: Cache,
  input: { fileName: string; bytes: Buffer; accountName: string; password?: string },
): Promise<StatementPreview> {
  return previewWith(cache.reconciliation.account(input.accountName)?.mapping ?? null, input);
}

/** The preview with the account's saved mapping, wherever the account is kept (the cache or the desk). */
export async function previewWith(
  saved: ColumnMapping | null,
  input: { fileName: string; bytes: Buffer; password?: string },
): Promise<StatementPreview> {
  const { rows } = await readTable(
    input.fileName,
    input.bytes,
    statementRowLimit(input.fileName),
    statementRead(saved, input.password),
  );
  const first = rows.slice(0, PREVIEW_ROWS);
  const header = findHeaderRow(
    first.map((r) => r.cells),
    saved,
  );
  return {
    fileName: input.fileName,
    rows: first.map((r) => ({ n: r.n, cells: r.cells.map((c) => cellText(c).slice(0, PREVIEW_CELL_CHARS)) })),
    header: header && { index: header.index, layout: header.layout, mapping: header.mapping },
  };
}

export interface ReadStatement {
  digest: string;
  kind: TableKind;
  layout: string;
  mapping: ColumnMapping;
  lines: StatementLineIn[];
  bad: BadStatementRow[];
  /** Rows read as the statement's own summary, totals or footer, not as lines. */
  summaryRows: number[];
  proof: CompletenessProof;
}

/**
 * Reads a statement (XLSX, BIFF8 XLS, CSV, tab-separated text, MT940 or a PDF with text, told by its content): the
 * header row is found by the mapping given, else the account's saved one, then by the known layouts. A file whose
 * header cannot be found is refused whole; a bad row is reported and the rest kept. The statement's own balances and
 * totals prove the lines complete or name the gap (`proof`); a PDF's password is used for this read and kept nowhere.
 */
export async function readStatement(
  input: { fileName: string; bytes: Buffer; password?: string },
  mapping: ColumnMapping | null,
): Promise<ReadStatement> {
  const { digest, rows, kind, balances } = await readTable(
    input.fileName,
    input.bytes,
    statementRowLimit(input.fileName),
    statementRead(mapping, input.password),
  );
  const header = findHeaderRow(
    rows.map((r) => r.cells),
    mapping,
  );
  if (!header) {
    throw new ReconInputError(
      `${input.fileName}: no header row with a date, a narration and amounts was found in its first 30 rows; ` +
        'map the columns (Date, Narration, Deposit or Amount, …) for this bank account.',
    );
  }
  const data = rows.slice(header.index + 1);
  if (data.length > STATEMENT_MAX_LINES) {
    throw new ReconInputError(
      `${input.fileName} has ${data.length} rows; import at most ${STATEMENT_MAX_LINES} at a time.`,
    );
  }
  const { lines, bad, summary, summaryRows } = readStatementRows(
    header.headers,
    data.map((r) => r.cells),
    data.map((r) => r.n),
    header.mapping,
  );
  const proof = proveComplete(balances ? { ...summary, ...balances } : summary, lines);
  return { digest, kind, layout: header.layout, mapping: header.mapping, lines, bad, summaryRows, proof };
}

/** What an import keeps of its proof in its journal entry's data. */
export function proofData(proof: CompletenessProof) {
  return { holds: proof.holds, stated: { ...proof.stated }, read: { ...proof.read }, problems: proof.problems };
}

/** What an import says, from what was read and what was stored. */
export function importResult(
  fileName: string,
  account: { id: number; name: string },
  read: ReadStatement,
  stored: { added: number; duplicates: number },
): StatementImportResult {
  const dates = read.lines.map((l) => l.date).sort();
  return {
    account: { id: account.id, name: account.name },
    fileName,
    kind: read.kind,
    layout: read.layout,
    mapping: read.mapping,
    lines: read.lines.length,
    added: stored.added,
    duplicates: stored.duplicates,
    credits: read.lines.filter((l) => l.amount > 0).length,
    debits: read.lines.filter((l) => l.amount < 0).length,
    from: dates[0] ?? null,
    to: dates.at(-1) ?? null,
    bad: read.bad,
    summaryRows: read.summaryRows,
    proof: read.proof,
  };
}

/** Reads a statement (readStatement) and stores its good lines and its proof in the account of the cache (made on first use). */
export async function importStatement(
  cache: Cache,
  journal: Journal,
  input: { fileName: string; bytes: Buffer; accountName: string; mapping?: ColumnMapping; password?: string },
): Promise<StatementImportResult> {
  const repo = cache.reconciliation;
  const existing = repo.account(input.accountName);
  const read = await readStatement(input, input.mapping ?? existing?.mapping ?? null);
  const { digest, kind, layout, lines, bad, proof } = read;
  const account = existing ?? repo.ensureAccount(input.accountName);
  // The statement and its journal entry in one transaction: an import is never stored without its entry.
  const stored = journal.transact((append) => {
    repo.setMapping(account.id, read.mapping);
    const added = repo.addStatement(
      account.id,
      {
        fileName: input.fileName,
        digest,
        layout,
        bad: bad.length,
        proof: { holds: proof.holds, sentence: proof.sentence },
      },
      lines,
    );
    append({
      kind: 'reconciliation',
      event: 'statement.imported',
      outcome: 'done',
      summary: `Imported ${input.fileName} into ${account.name}: ${added.added} new lines, ${added.duplicates} already held, ${bad.length} unreadable. ${proof.sentence}`,
      data: {
        account: account.name,
        fileName: input.fileName,
        sha256: digest,
        kind,
        layout,
        proof: proofData(proof),
        lines: lines.length,
        added: added.added,
        duplicates: added.duplicates,
        bad: bad.length,
      },
    });
    return added;
  });
  return importResult(input.fileName, account, read, stored);
}

function accountOf(cache: Cache, name: string): BankAccount {
  const account = cache.reconciliation.account(name);
  if (!account) {
    const known = cache.reconciliation.accounts().map((a) => a.name);
    throw new ReconInputError(
      `No bank account "${name}": import a statement into it first${known.length ? ` (accounts: ${known.join(', ')})` : ''}.`,
    );
  }
  return account;
}

/** A credit as a match holds it. */
export type MatchedLine = { id: number; date: string; amount: number };

/**
 * What matching and the report read: the cache's batches, and an account's lines, matches and apart pairs — the
 * cache's own (localView), or the desk's with this console's automatic matches (desk-view.ts). One code path reads
 * both.
 */
export interface ReconView {
  account: BankAccount;
  settings: ReconSettings;
  batches(from: string, to: string): BatchRow[];
  /** The account's credits dated in [from, to]: the only lines a match holds (a debit is never matched). */
  credits(from: string, to: string): StoredLine[];
  matches(): StoredMatch[];
  linesOfMatch(matchId: number): MatchedLine[];
  /** A batch matched in this account or another: it is not offered again. */
  matchOfBatch(key: BatchKey): { id: number } | null;
  /** Moves a match made while its batch's UTR was pending onto the batch, now that it has one. */
  rebindMatch(id: number, utr: string): void;
  apart(): ReadonlySet<string>;
  gateways(): string[];
  /** The statements whose lines fall in the period, each with what is kept of its completeness proof. */
  statements(from: string, to: string): ReconStatement[];
}

function localView(cache: Cache, account: BankAccount): ReconView {
  const repo = cache.reconciliation;
  return {
    account,
    settings: repo.settings(),
    batches: (from, to) => repo.batches(from, to),
    credits: (from, to) => repo.credits(account.id, from, to),
    matches: () => repo.matches(account.id),
    linesOfMatch: (id) => repo.linesOfMatch(id),
    matchOfBatch: (key) => repo.matchOfBatch(key),
    rebindMatch: (id, utr) => repo.rebindMatch(id, utr),
    apart: () => repo.apart(account.id),
    gateways: () => repo.gateways(),
    statements: (from, to) => repo.statements(account.id, from, to),
  };
}

/** The account's view on the cache alone (local mode). */
export const localReconView = (cache: Cache, accountName: string) => localView(cache, accountOf(cache, accountName));

export function scopeBatches(view: ReconView, from: string, to: string): BatchRow[] {
  const all = view.batches(from, to);
  return view.account.gateways === null ? all : all.filter((b) => view.account.gateways!.includes(b.pg));
}

/** The gateway a narration names (its code in capitals, as banks print the remitter), if exactly one. */
function gatewayHint(narration: string, gateways: readonly string[]): string | null {
  const upper = narration.toUpperCase();
  const named = gateways.filter((g) => upper.includes(g.toUpperCase()));
  return named.length === 1 ? named[0]! : null;
}

/** The automatic matcher over the period's batches no one matched and the credits in no match. */
export function proposeMatches(view: ReconView, batches: readonly BatchRow[], from: string, to: string) {
  const gateways = view.gateways();
  const credits: MatchCredit[] = view
    .credits(from, addDays(to, view.settings.windowDays))
    .filter((l) => l.matchId === null)
    .map((l) => ({
      id: l.id,
      date: l.date,
      amount: l.amount,
      utr: l.utr,
      pgHint: gatewayHint(l.narration, gateways),
    }));
  const free = batches.filter((b) => view.matchOfBatch(b) === null);
  return autoMatch(free, credits, view.settings, view.apart());
}

/**
 * Matches the period's batches to the account's credits anew: automatic matches of the period are made again
 * (what the desk matched by hand stays, as do the pairs it took apart), after a manual match whose batch has since
 * received its UTR is moved to it. Returns the report.
 */
export function matchPeriod(
  cache: Cache,
  input: { account: string; from: string; to: string; today: string },
): ReconReport {
  const repo = cache.reconciliation;
  const view = localReconView(cache, input.account);
  const batches = scopeBatches(view, input.from, input.to);
  repo.transaction(() => {
    rebindFilledUtrs(view, batches);
    repo.dropAutoMatches(view.account.id, input.from, input.to, addDays(input.to, view.settings.windowDays));
    for (const m of proposeMatches(view, batches, input.from, input.to)) {
      repo.addMatch(view.account.id, m.batch, m.how, m.lineIds, null);
    }
  });
  return reportOf(view, input);
}

/**
 * A batch matched while its UTR was pending is the same batch once the gateway gives the UTR: its match follows it
 * (same gateway and settlement time, the one batch of that time with a UTR).
 */
export function rebindFilledUtrs(view: ReconView, batches: readonly BatchRow[]): void {
  const present = new Set(batches.map(batchKeyText));
  for (const m of view.matches()) {
    if (m.utr !== '' || present.has(batchKeyText(m))) continue;
    const filled = batches.filter(
      (b) => b.date === m.date && b.pg === m.pg && b.settlementDate === m.settlementDate && b.utr !== '',
    );
    if (filled.length === 1 && !view.matchOfBatch(filled[0]!)) view.rebindMatch(m.id, filled[0]!.utr);
  }
}

/** Every batch of the period and every credit of the period (or matched to one of its batches), with its state. */
export function report(cache: Cache, input: { account: string; from: string; to: string; today: string }): ReconReport {
  return reportOf(localReconView(cache, input.account), input);
}

export function reportOf(view: ReconView, input: { from: string; to: string; today: string }): ReconReport {
  const { account, settings } = view;
  const batches = scopeBatches(view, input.from, input.to);
  const byKey = new Map(batches.map((b) => [batchKeyText(b), b]));
  const matches = view.matches();
  const lines = new Map<number, StoredLine>();
  for (const l of view.credits(input.from, addDays(input.to, settings.windowDays))) lines.set(l.id, l);
  const outBatches: ReconBatch[] = [];
  const creditState = new Map<
    number,
    { state: ReconCredit['state']; matchId: number; batch: BatchKey; lateDays: number | null }
  >();
  const matchOfBatch = new Map<string, (typeof matches)[number]>();
  for (const m of matches) matchOfBatch.set(batchKeyText(m), m);
  for (const m of matches) {
    const its = view.linesOfMatch(m.id);
    if (!its.some((l) => lines.has(l.id))) continue;
    // A credit of the period may pay a batch of the day before it; a batch re-synced away leaves its credits free.
    const batch =
      byKey.get(batchKeyText(m)) ?? view.batches(m.date, m.date).find((b) => batchKeyText(b) === batchKeyText(m));
    if (!batch) continue;
    const state = matchedState(m.how, sumMinor(its.map((l) => l.amount)) - batch.settled);
    const late = lateDays(
      batch.date,
      its.map((l) => l.date),
      settings,
    );
    for (const l of its) creditState.set(l.id, { state, matchId: m.id, batch: m, lateDays: late });
  }
  for (const b of batches) {
    const m = matchOfBatch.get(batchKeyText(b));
    const its = m ? view.linesOfMatch(m.id) : [];
    const difference = m ? sumMinor(its.map((l) => l.amount)) - b.settled : null;
    outBatches.push({
      date: b.date,
      pg: b.pg,
      utr: b.utr,
      settlementDate: b.settlementDate,
      records: b.records,
      settled: b.settled,
      exceptions: b.exceptions,
      state: m ? matchedState(m.how, difference!) : unmatchedBatchState(b, input.today, settings),
      how: m?.how ?? null,
      matchId: m?.id ?? null,
      difference,
      lineIds: its.map((l) => l.id),
      note: m?.note ?? null,
      reason: m?.reason ?? null,
      lateDays: lateDays(
        b.date,
        its.map((l) => l.date),
        settings,
      ),
    });
  }
  const credits: ReconCredit[] = [];
  for (const l of lines.values()) {
    const s = creditState.get(l.id);
    // A credit after the period belongs to it only when it pays one of its batches.
    if (!s && l.date > input.to) continue;
    credits.push({
      id: l.id,
      date: l.date,
      valueDate: l.valueDate,
      narration: l.narration,
      reference: l.reference,
      amount: l.amount,
      utr: l.utr,
      rail: l.rail,
      state: s?.state ?? 'unmatched',
      matchId: s?.matchId ?? null,
      batch: s
        ? { date: s.batch.date, pg: s.batch.pg, utr: s.batch.utr, settlementDate: s.batch.settlementDate }
        : null,
      lateDays: s?.lateDays ?? null,
    });
  }
  return {
    account: { id: account.id, name: account.name },
    from: input.from,
    to: input.to,
    today: input.today,
    settings,
    batchTotals: BATCH_STATES.map((state) =>
      totalOf(
        state,
        BATCH_STATE_LABELS[state],
        outBatches.filter((b) => b.state === state),
        (b) => b.settled,
        (b) => b.difference ?? 0,
      ),
    ),
    creditTotals: CREDIT_STATES.map((state) =>
      totalOf(
        state,
        CREDIT_STATE_LABELS[state],
        credits.filter((c) => c.state === state),
        (c) => c.amount,
        () => 0,
      ),
    ),
    batches: outBatches,
    credits,
    late: {
      count: outBatches.filter((b) => b.lateDays !== null).length,
      amount: sumMinor(outBatches.filter((b) => b.lateDays !== null).map((b) => b.settled)),
    },
    statements: view.statements(input.from, input.to),
  };
}

function totalOf<T>(
  state: string,
  label: string,
  items: readonly T[],
  amount: (t: T) => number,
  diff: (t: T) => number,
): StateTotal {
  return {
    state,
    label,
    count: items.length,
    amount: sumMinor(items.map(amount)),
    difference: sumMinor(items.map(diff)),
  };
}

/**
 * The batch as one line of the journal, in the screens' formats: its gateway, UTR (or "UTR pending"), settlement
 * time and the date it was synced for ("cashfree UTR123 settled 12/06/2026, 12:12:26 pm IST (12/06/2026)"). The
 * desk words it the same way (desk.batch_words, desk migration 11).
 */
export function batchWords(b: BatchKey): string {
  const utr = b.utr === '' ? 'UTR pending' : b.utr;
  return `${b.pg} ${utr} settled ${formatIstWallClock(b.settlementDate)} (${formatCalendarDate(b.date)})`;
}

const batchData = (b: BatchKey) => ({ date: b.date, pg: b.pg, utr: b.utr, settlementDate: b.settlementDate });

/**
 * A match by hand's batch, found among the batches of its date (`ofDate`, from the cache or the desk's copy, named by
 * `where`), and its note; refused without credits or a note.
 */
export function handMatchOf(
  ofDate: readonly BatchRow[],
  input: { batch: BatchKey; lineIds: number[]; note: string },
  where = 'in the cache',
) {
  if (input.lineIds.length === 0) throw new ReconInputError('Choose at least one credit to match the batch to.');
  const note = input.note.trim();
  if (note === '') throw new ReconInputError('A match by hand needs a note saying why.');
  const batch = ofDate.find((b) => batchKeyText(b) === batchKeyText(input.batch));
  if (!batch) throw new ReconInputError(`No batch ${batchKeyText(input.batch)} ${where}.`);
  return { batch, note };
}

/**
 * The reason a match by hand keeps for its difference, or null. A difference is never accepted without a word on
 * why: the rule is here, in the core, so the screen, the command line and a desk's match all meet the same refusal.
 */
export function reasonForDifference(difference: number, reason: string | undefined): string | null {
  const why = reason?.trim() ?? '';
  if (difference !== 0 && why === '') {
    throw new ReconInputError(
      `The credits are ${formatMoney(Math.abs(difference))} ${difference > 0 ? 'more' : 'less'} than the batch; give the reason for the difference before matching them.`,
    );
  }
  return why === '' ? null : why;
}

/**
 * Matches a batch to credits by hand, with a note; the credits leave any automatic match they were in. The match
 * and its journal entry (who, the batch, the credits, the amounts and the note) are written in one transaction,
 * which `refuseClosed` refuses for a batch of a closed period.
 */
export function matchByHand(
  cache: Cache,
  journal: Journal,
  input: { account: string; batch: BatchKey; lineIds: number[]; note: string; reason?: string },
  refuseClosed: (batch: BatchKey) => void = () => undefined,
): number {
  const repo = cache.reconciliation;
  const account = accountOf(cache, input.account);
  const { batch, note } = handMatchOf(repo.batches(input.batch.date, input.batch.date), input);
  const lines = new Map(repo.lines(account.id, '0000-01-01', '9999-12-31').map((l) => [l.id, l]));
  return journal.transact((append) => {
    refuseClosed(batch);
    const replaced = new Set<number>();
    for (const id of input.lineIds) {
      const l = lines.get(id);
      if (!l) throw new ReconInputError(`Statement line ${id} is not in account "${account.name}".`);
      if (l.amount <= 0) throw new ReconInputError(`Statement line ${id} is a debit, not a credit.`);
      const m = repo.matchOfLine(id);
      if (m !== null) replaced.add(m);
    }
    const credited = sumMinor(input.lineIds.map((id) => lines.get(id)!.amount));
    const reason = reasonForDifference(credited - batch.settled, input.reason);
    const old = repo.matchOfBatch(batch);
    if (old) replaced.add(old.id);
    for (const m of replaced) repo.dropMatch(m);
    const matchId = repo.addMatch(account.id, batch, 'manual', input.lineIds, note, reason);
    append({
      kind: 'action',
      event: 'recon.match_by_hand',
      outcome: 'done',
      summary:
        `Matched batch ${batchWords(batch)} by hand to ${input.lineIds.length} credit` +
        `${input.lineIds.length === 1 ? '' : 's'} in "${account.name}" (difference ${formatMoney(credited - batch.settled)}): ${note}` +
        (reason ? ` The difference, because: ${reason}` : ''),
      data: {
        account: account.name,
        matchId,
        batch: batchData(batch),
        lineIds: input.lineIds,
        credited,
        settled: batch.settled,
        difference: credited - batch.settled,
        replacedMatches: [...replaced],
        note,
        ...(reason ? { reason } : {}),
      },
    });
    return matchId;
  });
}

/**
 * Takes a match apart, with a note: the batch and its credits are free again, and the automatic matcher will not
 * pair them again (the desk said they do not belong together). Journaled with the note, in the same transaction.
 */
export function unmatch(
  cache: Cache,
  journal: Journal,
  input: { account: string; matchId: number; note: string },
  refuseClosed: (batch: BatchKey) => void = () => undefined,
): void {
  const repo = cache.reconciliation;
  const account = accountOf(cache, input.account);
  const note = input.note.trim();
  if (note === '') throw new ReconInputError('Unmatching needs a note saying why.');
  const m = repo.matches(account.id).find((x) => x.id === input.matchId);
  if (!m) throw new ReconInputError(`No match ${input.matchId} in account "${account.name}".`);
  journal.transact((append) => {
    refuseClosed(m);
    const its = repo.linesOfMatch(m.id);
    repo.keepApart(
      m,
      its.map((l) => l.id),
      note,
    );
    repo.dropMatch(m.id);
    append({
      kind: 'action',
      event: 'recon.unmatch',
      outcome: 'done',
      summary: `Unmatched batch ${batchWords(m)} from ${its.length} credit${its.length === 1 ? '' : 's'} in "${account.name}" (was ${m.how}): ${note}`,
      data: {
        account: account.name,
        matchId: m.id,
        how: m.how,
        batch: batchData(m),
        lineIds: its.map((l) => l.id),
        credited: sumMinor(its.map((l) => l.amount)),
        note,
      },
    });
  });
}

/** Saves the match settings with their journal entry (before and after), in one transaction; unchanged is no entry. */
export function saveMatchSettings(cache: Cache, journal: Journal, next: ReconSettings): ReconSettings {
  const repo = cache.reconciliation;
  const before = repo.settings();
  if (JSON.stringify(before) === JSON.stringify(next)) return before;
  return journal.transact((append) => {
    const saved = repo.putSettings(next);
    append({
      kind: 'reconciliation',
      event: 'recon.settings_changed',
      outcome: 'done',
      summary: `Match settings: credits up to ${saved.windowDays} days after a batch, overdue after T+${saved.overdueDays}, triage tags at ${Math.round(saved.triageThreshold * 100)}%.`,
      data: { before, after: saved },
    });
    return saved;
  });
}
