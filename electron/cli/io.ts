/**
 * How the CLI talks back: results to stdout (a table for people, one JSON document with --json), progress
 * and errors to stderr. A redrawn progress line on a terminal, plain lines otherwise (logs, CI).
 */
import { isPendingApproval, sentForApprovalText, type PendingApproval } from '../../shared/approvals';
import { SYNC_CONCURRENCY } from '../../shared/profiles';
import { epochMsToIst } from '../../shared/time';

export class UsageError extends Error {
  override name = 'UsageError';
}

/** Values the command understood but cannot accept (a form the shared schema refuses): exit 2, no usage line. */
export class InputError extends Error {
  override name = 'InputError';
}

/** An action whose outcome is not known (the answer was lost, or a check could not settle it): exit 3. */
export class OutcomeUnknownError extends Error {
  override name = 'OutcomeUnknownError';
}

/**
 * The exit codes every command keeps: 0 done, 1 refused (by the service, or a check that did not hold), 2 bad
 * input, 3 outcome unknown — check the status before trying again.
 */
export const EXIT = { done: 0, refused: 1, badInput: 2, outcomeUnknown: 3 } as const;

export interface Io {
  json: boolean;
  out(text: string): void;
  err(text: string): void;
  isTerminal: boolean;
  /** Where passwords are read from (readSecrets): the process's standard input, or a test's. */
  stdin?: NodeJS.ReadStream;
}

export function processIo(json: boolean): Io {
  return {
    json,
    out: (text) => process.stdout.write(text + '\n'),
    err: (text) => process.stderr.write(text + '\n'),
    isTerminal: process.stderr.isTTY === true,
    stdin: process.stdin,
  };
}

/** An ISO UTC instant as the CLI prints times: IST wall clock with the zone stated. */
export function istText(iso: string): string {
  return `${epochMsToIst(Date.parse(iso))} IST`;
}

/** Writes a value as the command's result: JSON under --json, else the human text. */
export function result(io: Io, value: unknown, human: () => string): void {
  io.out(io.json ? JSON.stringify(value, null, 2) : human());
}

/**
 * A money action's answer, or the proposal a desk's policy made of it: exit 0 either way, since nothing failed; its
 * `--json` says `"status": "pending_approval"` with the proposal.
 */
export function actionResult<T>(
  io: Io,
  answer: T | PendingApproval,
  human: (sent: T) => string,
  json?: (sent: T) => unknown,
) {
  if (isPendingApproval(answer)) {
    const proposal = answer.pendingApproval;
    result(io, { status: 'pending_approval', proposal }, () => sentForApprovalText(proposal));
    return;
  }
  result(io, json ? json(answer) : answer, () => human(answer));
}

/** A fixed-width table; numbers and money are right-aligned by the caller passing `align`. */
export function table(headers: string[], rows: string[][], align: ('left' | 'right')[] = []): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (align[i] === 'right' ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** One progress line: redrawn in place on a terminal, appended otherwise. */
export function progressLine(io: Io): { update(text: string): void; done(): void } {
  let drawn = false;
  return {
    update(text) {
      if (io.isTerminal) {
        process.stderr.write(`\r\x1b[2K${text}`);
        drawn = true;
      } else io.err(text);
    },
    done() {
      if (drawn) process.stderr.write('\n');
    },
  };
}

/**
 * Commands that move money act only with `--yes`: without it they say what they would do and exit 2, so a command
 * pasted from a note or run from history never moves money by accident.
 */
export function requireYes(values: Record<string, unknown>, what: string): void {
  if (values['yes'] !== true) throw new InputError(`This would ${what}. Add --yes to do it.`);
}

/** A number of settlement pages at once (`--concurrency`, `--sync-concurrency`), or undefined when not given. */
export function pagesAtOnce(option: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d+$/.test(value) || Number(value) < 1 || Number(value) > SYNC_CONCURRENCY.max) {
    throw new UsageError(
      `--${option} must be a whole number of pages from 1 to ${SYNC_CONCURRENCY.max}, got ${String(value)}`,
    );
  }
  return Number(value);
}
