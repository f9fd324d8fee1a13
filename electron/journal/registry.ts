/**
 * Each profile's journal and closed periods, on its cache. A cache that was cleared or replaced is a new object,
 * so they are kept per cache object and made again for a new one. A cache that replaced an unreadable file
 * starts its chain with an entry that says where the old one went.
 */
import { userInfo } from 'node:os';
import type { Cache } from '../cache/database';
import { createJournal, type Journal, type JournalHeads } from './journal';
import { createPeriodCloses, type PeriodCloses } from './period-close';

export interface ProfileJournal {
  journal: Journal;
  periods: PeriodCloses;
}

/** The OS account the app runs as, for every entry; a machine that will not say gets "unknown". */
export function osUserName(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env['USER'] ?? process.env['USERNAME'] ?? 'unknown';
  }
}

export function createJournals(deps: {
  /** The cache of a profile id, whether or not the profile still exists (a removed profile's last entry). */
  cacheFor(profileId: string): Cache;
  heads: JournalHeads;
  appVersion: string;
  osUser?: string;
  now: () => Date;
  nativeBinding?: string;
  /** Whether a profile is on a desk now, so its new entries also go to the desk's journal (desk-mirror.ts). */
  onDesk?: (profileId: string) => boolean;
  /** Told when a profile's entries wait for the desk. */
  onQueued?: (profileId: string) => void;
}) {
  const made = new WeakMap<Cache, ProfileJournal>();
  const osUser = deps.osUser ?? osUserName();

  return {
    for(profileId: string): ProfileJournal {
      const cache = deps.cacheFor(profileId);
      let found = made.get(cache);
      if (!found) {
        const journal = createJournal({
          db: cache.db,
          profileId,
          heads: deps.heads,
          appVersion: deps.appVersion,
          osUser,
          now: deps.now,
          nativeBinding: deps.nativeBinding,
          mirrored: deps.onDesk && (() => deps.onDesk!(profileId)),
          onQueued: deps.onQueued && (() => deps.onQueued!(profileId)),
        });
        found = { journal, periods: createPeriodCloses({ db: cache.db, journal, now: deps.now }) };
        made.set(cache, found);
        if (cache.recovered) {
          const previousHead = deps.heads.journalHead(profileId);
          journal.restartAfterRecovery({
            kind: 'cache',
            event: 'cache.moved_aside',
            outcome: 'done',
            summary: `The cache could not be read and was moved aside to ${cache.recovered.movedTo}; its journal is there.`,
            data: {
              ...cache.recovered,
              previousHead: previousHead && { seq: previousHead.seq, hash: previousHead.hash },
            },
          });
        }
      }
      return found;
    },
  };
}
export type Journals = ReturnType<typeof createJournals>;
