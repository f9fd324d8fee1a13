/**
 * Profiles as settings in the app's data folder (`settings.json`), never holding a secret. Writes go to a
 * temporary file that is renamed over the old one, so a crash leaves either the old settings or the new.
 * A settings file that cannot be read is moved aside with a timestamp and reported, never deleted; one whose
 * profiles are partly invalid keeps the valid ones and is copied aside as it was, so nothing is lost.
 */
import { randomUUID } from 'node:crypto';
import { copyFileSync, readFileSync, renameSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { describeIssues } from '../../shared/api/operations';
import { SANDBOX_PROFILE_ID, profileFields, type Profile, type ProfileFields } from '../../shared/profiles';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../private-files';

/** Each profile's journal head (electron/journal/): kept here too, out of reach of whoever edits a cache file. */
const journalHead = z.object({ seq: z.number().int().nonnegative(), hash: z.string().regex(/^[0-9a-f]{64}$/) });
type JournalHead = z.output<typeof journalHead>;

/** The file's outline; each profile is checked on its own, so one bad entry does not cost the others. */
const settingsFile = z.object({
  version: z.literal(1),
  activeProfileId: z.string(),
  profiles: z.array(z.unknown()),
  journalHeads: z.record(z.string(), journalHead).default({}),
});

/**
 * A profile as stored. `builtIn` is never read from the file (only the embedded sandbox's profile is built in, and
 * it is made at start-up), and the built-in profile's id cannot be claimed by a stored one: either would hand the
 * embedded sandbox's secret to an address the file chose.
 */
const storedProfile = profileFields.extend({
  id: z
    .string()
    .regex(/^[a-z0-9-]{1,64}$/)
    .refine((id) => id !== SANDBOX_PROFILE_ID, "is the built-in profile's id"),
});

interface Settings {
  version: 1;
  activeProfileId: string;
  profiles: Profile[];
  journalHeads: Record<string, JournalHead>;
}

export class ProfileError extends Error {
  override name = 'ProfileError';
  constructor(
    readonly code: 'PROFILE_NOT_FOUND' | 'PROFILE_INVALID' | 'PROFILE_BUILT_IN' | 'PROFILE_NAME_TAKEN',
    message: string,
  ) {
    super(message);
  }
}

export interface EmbeddedSandbox {
  url: string;
  key: string;
}

/** A change to the profiles, for the journal (electron/journal/profile-events.ts): never a secret. */
export type ProfileEvent =
  | { event: 'profile.created' | 'profile.removed' | 'profile.activated'; profile: Profile }
  | { event: 'profile.updated'; profile: Profile; fields: string[] };

export interface ProfileStoreOptions {
  dataDir: string;
  /** Told of every change after it is saved. */
  onEvent?: (e: ProfileEvent) => void;
  /** The running embedded sandbox, which the built-in profile points at; null for a store with no built-in profile. */
  sandbox: EmbeddedSandbox | null;
  now?: () => Date;
}

export function createProfileStore({ dataDir, sandbox, onEvent, now = () => new Date() }: ProfileStoreOptions) {
  const file = join(dataDir, 'settings.json');
  /** Set when a broken settings file was moved or copied aside at open: where it went and what to tell the user. */
  let recovered: { movedTo: string; message: string } | null = null;
  let settings = load();

  function load(): Settings {
    const fresh: Settings = { version: 1, activeProfileId: SANDBOX_PROFILE_ID, profiles: [], journalHeads: {} };
    if (!existsSync(file)) return fresh;
    const aside = `${file}.unreadable-${now().toISOString().replace(/[:.]/g, '-')}`;
    let outline: z.output<typeof settingsFile>;
    try {
      outline = settingsFile.parse(JSON.parse(readFileSync(file, 'utf8')));
    } catch {
      renameSync(file, aside);
      recovered = {
        movedTo: aside,
        message:
          'The settings file could not be read, so the console started with the built-in profile only. ' +
          `The unreadable file was kept at ${aside}.`,
      };
      return fresh;
    }
    const profiles: Profile[] = [];
    for (const entry of outline.profiles) {
      const parsed = storedProfile.safeParse(entry);
      const taken = parsed.success && profiles.some((p) => p.id === parsed.data.id);
      if (parsed.success && !taken) profiles.push({ ...parsed.data, builtIn: false });
    }
    const left = outline.profiles.length - profiles.length;
    if (left > 0) {
      // The valid profiles stay in use; the file as it was is kept for whoever wants the others back.
      copyFileSync(file, aside);
      recovered = {
        movedTo: aside,
        message:
          `${left === 1 ? 'One profile' : `${left} profiles`} in the settings file could not be used and ` +
          `${left === 1 ? 'was' : 'were'} left out; the others are in use. The file as it was is kept at ${aside}.`,
      };
    }
    return { version: 1, activeProfileId: outline.activeProfileId, profiles, journalHeads: outline.journalHeads };
  }

  /**
   * Journal heads as the file holds them now: the app and the CLI each append to journals and hold their own copy
   * of the settings, so heads are always read from disk and carried over by every write.
   */
  function headsOnDisk(): Record<string, JournalHead> {
    if (!existsSync(file)) return settings.journalHeads;
    try {
      return settingsFile.parse(JSON.parse(readFileSync(file, 'utf8'))).journalHeads;
    } catch {
      return settings.journalHeads;
    }
  }

  function save(next: Settings, journalHeads = headsOnDisk()) {
    ensurePrivateDir(dataDir);
    const written = { ...next, journalHeads };
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(written, null, 2) + '\n', { mode: PRIVATE_FILE_MODE });
    renameSync(tmp, file);
    settings = written;
  }

  function builtIn(): Profile[] {
    if (!sandbox) return [];
    return [
      {
        id: SANDBOX_PROFILE_ID,
        builtIn: true,
        name: 'Sandbox',
        environment: 'sandbox',
        baseUrl: sandbox.url,
        aiUrl: `${sandbox.url}/ai`,
        key: sandbox.key,
        hashScheme: 'sha512',
      },
    ];
  }

  function validate(fields: unknown): z.output<typeof profileFields> {
    const parsed = profileFields.safeParse(fields);
    if (!parsed.success)
      throw new ProfileError('PROFILE_INVALID', `Check the profile: ${describeIssues(parsed.error)}.`);
    return parsed.data;
  }

  function assertNameFree(name: string, exceptId?: string) {
    if (list().some((p) => p.id !== exceptId && p.name.toLowerCase() === name.toLowerCase())) {
      throw new ProfileError('PROFILE_NAME_TAKEN', `A profile named "${name}" already exists.`);
    }
  }

  function list(): Profile[] {
    return [...builtIn(), ...settings.profiles];
  }

  function get(id: string): Profile {
    const found = list().find((p) => p.id === id);
    if (!found) throw new ProfileError('PROFILE_NOT_FOUND', `No profile with id "${id}".`);
    return found;
  }

  function stored(id: string): Profile {
    const p = get(id);
    if (p.builtIn)
      throw new ProfileError('PROFILE_BUILT_IN', 'The built-in Sandbox profile cannot be changed or removed.');
    return p;
  }

  return {
    /** Where an unreadable settings file was moved (or a partly invalid one copied) at open, or null. */
    recovered: () => recovered,
    list,
    get,
    create(fields: ProfileFields): Profile {
      const valid = validate(fields);
      assertNameFree(valid.name);
      const created: Profile = { ...valid, id: randomUUID(), builtIn: false };
      save({ ...settings, profiles: [...settings.profiles, created] });
      onEvent?.({ event: 'profile.created', profile: created });
      return created;
    },
    /** The profile `update` would store, checked, without storing it: for what must happen before (credentials.ts). */
    prepareUpdate(id: string, fields: ProfileFields): Profile {
      const current = stored(id);
      const valid = validate(fields);
      assertNameFree(valid.name, id);
      return { ...valid, id: current.id, builtIn: false };
    },
    update(id: string, fields: ProfileFields): Profile {
      const current = stored(id);
      const updated = this.prepareUpdate(id, fields);
      save({ ...settings, profiles: settings.profiles.map((p) => (p.id === id ? updated : p)) });
      const changed = (Object.keys(profileFields.shape) as (keyof ProfileFields)[]).filter(
        (k) => updated[k] !== current[k],
      );
      onEvent?.({ event: 'profile.updated', profile: updated, fields: changed });
      return updated;
    },
    remove(id: string): void {
      const removed = stored(id);
      const profiles = settings.profiles.filter((p) => p.id !== id);
      const activeProfileId =
        settings.activeProfileId === id
          ? (builtIn()[0]?.id ?? profiles[0]?.id ?? SANDBOX_PROFILE_ID)
          : settings.activeProfileId;
      save({ ...settings, profiles, activeProfileId });
      onEvent?.({ event: 'profile.removed', profile: removed });
    },
    /** The active profile; falls back to the first one when the stored choice no longer exists. */
    active(): Profile {
      const all = list();
      const found = all.find((p) => p.id === settings.activeProfileId) ?? all[0];
      if (!found)
        throw new ProfileError(
          'PROFILE_NOT_FOUND',
          'No profile is configured. Add one with a base URL and merchant key.',
        );
      return found;
    },
    activate(id: string): Profile {
      const p = get(id);
      save({ ...settings, activeProfileId: p.id });
      onEvent?.({ event: 'profile.activated', profile: p });
      return p;
    },
    journalHead: (profileId: string): JournalHead | null => headsOnDisk()[profileId] ?? null,
    setJournalHead(profileId: string, head: JournalHead): void {
      save(settings, { ...headsOnDisk(), [profileId]: head });
    },
  };
}
export type ProfileStore = ReturnType<typeof createProfileStore>;
