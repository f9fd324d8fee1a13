/**
 * The desk's copy of each console's journal. The local journal stays the console's own record and works offline;
 * while a profile is on a desk each new entry also waits in the cache's outbox (journal.ts, in the transaction
 * that wrote it) and is sent here, oldest first, to the desk's `journal_mirror` (desk/migrations/
 * 008-journal-mirror.ts), which names the person by the session's login. An entry is marked sent only after the
 * desk answered; one whose answer was lost is sent again and the desk hands back the entry it already holds, so
 * nothing is doubled. A desk that cannot be reached stops the round: the entries wait, in order, for the next one
 * (the registry starts one whenever the desk is opened or its connection comes back, and every new entry does).
 */
import type { DeskRegistry } from '../desk/registry';
import type { Logger } from '../log';
import type { WaitingEntry } from './journal';
import type { Journals } from './registry';

const BATCH = 200;

/** What the desk is sent of a local entry: its fields, and in `local` what only the console knows of it. */
function mirroredOf({ entry }: WaitingEntry, deskRefersTo: number | null) {
  return {
    seq: entry.seq,
    hash: entry.hash,
    kind: entry.kind,
    event: entry.event,
    outcome: entry.outcome,
    summary: entry.summary,
    data: {
      ...entry.data,
      local: {
        at: entry.at,
        osUser: entry.osUser,
        appVersion: entry.appVersion,
        requestId: entry.requestId,
        refersTo: entry.refersTo,
      },
    },
    refersTo: deskRefersTo,
  };
}

export function createJournalMirror(deps: { journals: Journals; desks: DeskRegistry; log: Logger }) {
  const running = new Map<string, Promise<number>>();
  const queued = new Map<string, Promise<number>>();

  /** Sends what waits, oldest first, until none does; the number still waiting. */
  async function round(profileId: string): Promise<number> {
    const { outbox } = deps.journals.for(profileId).journal;
    if (outbox.waiting() === 0) return 0;
    const desk = await deps.desks.for(profileId);
    if (!desk) return outbox.waiting();
    // An entry that refers to one sent earlier in the same round finds it here.
    const sent = new Map<number, number>();
    for (let batch = outbox.next(BATCH); batch.length > 0; batch = outbox.next(BATCH)) {
      for (const waiting of batch) {
        const { refersTo } = waiting.entry;
        const deskRefersTo = waiting.deskRefersTo ?? (refersTo === null ? null : (sent.get(refersTo) ?? null));
        const deskSeq = await desk.journal.mirror(mirroredOf(waiting, deskRefersTo));
        outbox.pushed(waiting.entry.seq, deskSeq);
        sent.set(waiting.entry.seq, deskSeq);
      }
    }
    return 0;
  }

  function start(profileId: string): Promise<number> {
    queued.delete(profileId);
    const done = round(profileId)
      .catch((e: unknown) => {
        deps.log.warn('journal entries wait for the desk', { profileId, error: e });
        return deps.journals.for(profileId).journal.outbox.waiting();
      })
      .finally(() => {
        if (running.get(profileId) === done) running.delete(profileId);
      });
    running.set(profileId, done);
    return done;
  }

  return {
    /**
     * Sends the profile's waiting entries: one round at a time, and at most one more queued behind it (every call
     * meanwhile shares that one, which reads the outbox afresh). Resolves with how many still wait.
     */
    push(profileId: string): Promise<number> {
      const next = queued.get(profileId);
      if (next) return next;
      const current = running.get(profileId);
      if (!current) return start(profileId);
      const after = current.then(() => start(profileId));
      queued.set(profileId, after);
      return after;
    },

    /** How many of the profile's entries wait for the desk. */
    waiting: (profileId: string): number => deps.journals.for(profileId).journal.outbox.waiting(),

    /** Resolves when every round started has ended: the CLI waits for it before closing the cache. */
    async settled(): Promise<void> {
      while (running.size > 0 || queued.size > 0) await Promise.all([...running.values(), ...queued.values()]);
    },
  };
}
export type JournalMirror = ReturnType<typeof createJournalMirror>;
