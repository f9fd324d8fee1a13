/**
 * Exports started from the UI: each in its own worker thread, cancellable, reporting through the event bus.
 * Where the file goes is asked of `targets.choose` (the app's save dialog, opened on the data folder's `exports/`);
 * without a dialog (the harness, tests), a new name in that folder. A name is held from the moment it is chosen
 * until its export ends, so two exports started together never write the same file. Finished exports (the
 * worker's and those written in place, like the reconciliation) are remembered by job id for "Show in folder",
 * so the renderer never names a path for the shell to open.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { basename, join, parse, resolve } from 'node:path';
import type { Worker } from 'node:worker_threads';
import type { ExportRequest, ExportResult } from '../../shared/exports';
import type { SettlementFilter } from '../../shared/settlement-query';
import type { ChangesFilter } from '../../shared/settlement-changes';
import { epochMsToIst, epochMsToIstDate } from '../../shared/time';
import type { Cache } from '../cache/database';
import type { EventBus } from '../ipc/events';
import { failedExport, journalExport } from '../journal/exports';
import type { Journals } from '../journal/registry';
import type { Logger } from '../log';
import type { ProfileStore } from '../profiles/profile-store';
import type { ExportJob } from './run-export';
import type { ExportContext } from './provenance';
import type { Profile } from '../../shared/profiles';
import { ensurePrivateDir } from '../private-files';
import { ExportPathError, fileNamePart, insideFolder } from './file-names';
import { listFilterOf } from './list-sheets';
import { spawnExportWorker } from './spawn-worker';
import type { WorkerMessage } from './worker-protocol';

export interface ExportTargets {
  /** The path to write, or null when the user dismissed the dialog. */
  choose(suggestedName: string, defaultDir: string): Promise<string | null>;
  /** Shows the file in the OS file manager. */
  reveal(file: string): void;
}

/**
 * A name that replaces nothing and that no running export holds: `name.xlsx`, then `name-2.xlsx`, … (no spaces,
 * like every export name).
 */
export function freeName(dir: string, name: string, held: ReadonlySet<string> = new Set()): string {
  const { name: stem, ext } = parse(name);
  for (let n = 1; ; n++) {
    const path = join(dir, n === 1 ? name : `${stem}-${n}${ext}`);
    if (!existsSync(path) && !held.has(resolve(path))) return path;
  }
}

/** The Changes view's filter beyond its dates, as file-name parts: gateway, sync run, kind of change. */
function changesParts(f: ChangesFilter): string[] {
  return [f.pg, f.runId && `sync-${f.runId}`, f.kind]
    .filter((p): p is string => typeof p === 'string' && p !== '')
    .map((p) => fileNamePart(p, ''))
    .filter(Boolean);
}

/** A settlement filter beyond its dates, as file-name parts: the gateway, every narrowing filter, the search. */
function filterParts(f: SettlementFilter): string[] {
  return [
    f.pg,
    f.paymentMode,
    f.orderStatus && `order-${f.orderStatus}`,
    f.pgStatus && `pg-${f.pgStatus}`,
    f.rule ? `rule-${f.rule}` : f.exceptionsOnly ? 'exceptions' : undefined,
    f.state && f.state !== 'current' ? (f.state === 'vanished' ? 'gone-from-api' : 'incl-gone-from-api') : undefined,
    f.search && `search-${f.search}`,
  ]
    .filter((p): p is string => typeof p === 'string' && p !== '')
    .map((p) => fileNamePart(p, ''))
    .filter(Boolean);
}

/** A list's filter on screen as file-name parts: the status, "changed", the search. */
function listFilterParts(request: ExportRequest): string[] {
  const f = listFilterOf(request);
  if (!f) return [];
  return [f.status && `status-${f.status}`, f.changed && 'changed', f.search && `search-${f.search}`]
    .filter((p): p is string => typeof p === 'string')
    .map((p) => fileNamePart(p, ''))
    .filter(Boolean);
}

/**
 * What the file is called by default: the profile, what, for which dates and the filter, so two desks' files never
 * mix and a filtered file never passes for the whole range. Every part that comes from text is cleaned and capped
 * (file-names.ts): the name is one plain file name, whatever the profile or the filter says.
 */
export function suggestedName(profileName: string, request: ExportRequest, now: number): string {
  // The saved view on screen comes right after what and when: the desk knows its files by their view.
  const view = 'view' in request && request.view ? [`view-${fileNamePart(request.view, 'unnamed')}`] : [];
  const what =
    request.kind === 'settlements'
      ? [`settlements-${request.filter.from}-to-${request.filter.to}`, ...view, ...filterParts(request.filter)].join(
          '-',
        )
      : request.kind === 'changes'
        ? [`changes-${request.filter.from}-to-${request.filter.to}`, ...changesParts(request.filter)].join('-')
        : request.kind === 'payoutCheck'
          ? `payout-check-${request.runId}-${epochMsToIstDate(now)}`
          : [`${request.kind}-${epochMsToIstDate(now)}`, ...view, ...listFilterParts(request)].join('-');
  return exportFileName(profileName, what, request.format);
}

/**
 * The reconciliation workbook's default name: the bank account's name is the desk's own text (`HDFC A/C 0012`),
 * cleaned like every other part, so it can neither make a folder nor leave one.
 */
export function reconciliationName(
  profileName: string,
  accountName: string,
  from: string,
  to: string,
  format: 'xlsx' | 'csv',
): string {
  return exportFileName(profileName, `reconciliation-${from}-to-${to}-${fileNamePart(accountName, 'account')}`, format);
}

/** The Tally import file's default name, made as the reconciliation workbook's is. */
export function tallyName(profileName: string, accountName: string, from: string, to: string): string {
  return exportFileName(profileName, `tally-${from}-to-${to}-${fileNamePart(accountName, 'account')}`, 'xml');
}

/** Every export's name: the profile first, then what (already cleaned parts), capped, then the extension. */
export function exportFileName(profileName: string, what: string, extension: string): string {
  // Most file systems stop at 255 bytes; the dates and the extension come first, so a long filter is what is cut.
  return `${fileNamePart(profileName, 'profile')}-${what}`.slice(0, 200).replace(/-$/, '') + `.${extension}`;
}

/**
 * Where exports go: `choose` asks the dialog, opened on the exports folder with a name no other export holds, or
 * without a dialog gives a new name in that folder. The name offered is held while the dialog is open, so a second
 * export asked for meanwhile is offered the next one; the answer is held until `release`, when its export ends.
 */
function exportChooser(defaultDir: string, targets: Partial<ExportTargets> | undefined) {
  /** Files chosen for an export that has not ended: no other export is given them. */
  const held = new Set<string>();
  async function choose(name: string): Promise<string | null> {
    ensurePrivateDir(defaultDir);
    const offered = resolve(freeName(defaultDir, name, held));
    if (!targets?.choose) {
      held.add(insideFolder(defaultDir, offered));
      return offered;
    }
    held.add(offered);
    let file: string | null;
    try {
      file = await targets.choose(basename(offered), defaultDir);
    } finally {
      held.delete(offered);
    }
    if (file === null) return null;
    const path = resolve(file);
    if (held.has(path)) throw new ExportPathError(`Another export is writing ${file} now; choose another name.`);
    held.add(path);
    return path;
  }
  return { choose, release: (file: string) => void held.delete(file) };
}

/** What an export made now for `profile` says about its making (its Audit sheet or `.about.txt`). */
export function exportContext(profile: Profile, journalHead: string, appVersion: string, now: number): ExportContext {
  return {
    profileName: profile.name,
    environment: profile.environment,
    baseUrl: profile.baseUrl,
    generatedAtIst: epochMsToIst(now),
    journalHead,
    appVersion,
  };
}

interface Running {
  profileId: string;
  worker: Worker;
}

export function createExportJobs(deps: {
  dataDir: string;
  profiles: ProfileStore;
  cacheFor: (profileId: string) => Cache;
  journals: Journals;
  events: EventBus;
  log: Logger;
  targets?: Partial<ExportTargets>;
  nativeBinding?: string;
  /** Printed on every export's provenance. */
  appVersion: string;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  const defaultDir = join(deps.dataDir, 'exports');
  const { choose, release } = exportChooser(defaultDir, deps.targets);
  /** Jobs that have not reported their end. */
  const running = new Map<string, Running>();
  /** Workers not yet exited (a worker removes its temporary files, reports its end, then exits). */
  const alive = new Set<Promise<void>>();
  const done = new Map<string, string>();

  const context = (profile: Profile): ExportContext =>
    exportContext(profile, deps.journals.for(profile.id).journal.head().hash, deps.appVersion, now());

  function run(jobId: string, profileId: string, job: ExportJob): Running {
    const worker = spawnExportWorker(job);
    const finish = (result: ExportResult) => {
      running.delete(jobId);
      release(job.file);
      if (result.file) done.set(jobId, result.file);
      // Journaled (with the file's SHA-256) before the UI hears of it, so the entry is there when it looks.
      void journalExport(deps.journals.for(profileId).journal, job.request, result)
        .catch((e: unknown) => deps.log.warn('export not journaled', { jobId, profileId, error: e }))
        .finally(() => deps.events.emit('exportFinished', { ...result, jobId, profileId }));
    };
    const failed = (error: string) => {
      deps.log.warn('export failed', { jobId, profileId, kind: job.request.kind, error });
      finish(failedExport(job.request, error));
    };
    let settled = false;
    worker.on('message', (m: WorkerMessage) => {
      if (m.type === 'progress') deps.events.emit('exportProgress', { ...m.progress, jobId, profileId });
      else if (!settled) {
        settled = true;
        if (m.type === 'result') finish(m.result);
        else failed(m.error);
      }
    });
    const exited = new Promise<void>((resolve) => {
      worker.once('error', (e) => {
        if (!settled) {
          settled = true;
          failed(e.message);
        }
      });
      worker.once('exit', () => {
        if (!settled) {
          settled = true;
          failed('The export stopped unexpectedly.');
        }
        alive.delete(exited);
        resolve();
      });
    });
    alive.add(exited);
    return { profileId, worker };
  }

  return {
    /**
     * Asks where to write a file of this name (the save dialog, or a new name in the exports folder), writes it with
     * `write` in this process, and remembers it for "Show in folder": `jobId` and `file` are null when the user chose
     * nowhere. The name is held until `write` ends, so the same export started twice writes two files.
     */
    async saveFile(
      name: string,
      write: (file: string) => Promise<void>,
    ): Promise<{ jobId: string | null; file: string | null }> {
      const file = await choose(name);
      if (file === null) return { jobId: null, file: null };
      try {
        await write(file);
      } finally {
        release(file);
      }
      const jobId = randomUUID();
      done.set(jobId, file);
      return { jobId, file };
    },
    /** What a file made for this profile says about its making (its Audit sheet or `.about.txt`). */
    context: (profileId: string) => context(deps.profiles.get(profileId)),
    /** Asks where to write, then starts the export; `jobId` is null when the user chose nowhere. */
    async start(profileId: string, request: ExportRequest): Promise<{ jobId: string | null; file: string | null }> {
      const profile = deps.profiles.get(profileId);
      const cache = deps.cacheFor(profile.id);
      const file = await choose(suggestedName(profile.name, request, now()));
      if (file === null) return { jobId: null, file: null };
      const jobId = randomUUID();
      const job: ExportJob = {
        request,
        cacheFile: cache.file,
        file,
        nativeBinding: deps.nativeBinding,
        context: context(profile),
      };
      running.set(jobId, run(jobId, profile.id, job));
      return { jobId, file };
    },
    cancel(jobId: string): boolean {
      const job = running.get(jobId);
      if (!job) return false;
      job.worker.postMessage({ type: 'cancel' });
      return true;
    },
    /** Shows a finished export's file; false for a job that wrote nothing or whose file is gone. */
    reveal(jobId: string): boolean {
      const file = done.get(jobId);
      if (!file || !existsSync(file) || !deps.targets?.reveal) return false;
      deps.targets.reveal(file);
      return true;
    },
    isRunning: (profileId: string) => [...running.values()].some((j) => j.profileId === profileId),
    /** Cancels every export and waits for the workers to stop, for shutdown. */
    async cancelAll(): Promise<void> {
      for (const j of running.values()) j.worker.postMessage({ type: 'cancel' });
      await Promise.all(alive);
    },
  };
}
export type ExportJobs = ReturnType<typeof createExportJobs>;
