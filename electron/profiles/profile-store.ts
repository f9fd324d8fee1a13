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
import {
  SANDBOX_PROFILE_ID,
  SYNC_CONCURRENCY,
  profileFields,
  type Profile,
  type ProfileFields,
} from '../../shared/profiles';
import {
  MAX_VIEWS_PER_TABLE,
  NO_VIEWS,
  tableViews,
  viewTable,
  withView,
  withoutView,
  sameName,
  type SavedView,
  type TableViews,
} from '../../shared/saved-views';
import { deskConnection, type DeskConnection } from '../../shared/desk';
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
  /** Saved views per profile, then per table; each table's are checked on their own (`viewsOf`). */
  views: z.record(z.string(), z.record(z.string(), z.unknown())).catch({}).default({}),
  /** The desk each profile is joined to (electron/desk/), each checked on its own (`desksOf`). */
  desks: z.record(z.string(), z.unknown()).catch({}).default({}),
  /** The head of each profile's desk journal as this console last saw it: a chain rewritten since is caught. */
  deskHeads: z.record(z.string(), journalHead).catch({}).default({}),
});

function desksOf(outline: Record<string, unknown>): Record<string, DeskConnection> {
  const desks: Record<string, DeskConnection> = {};
  for (const [profileId, entry] of Object.entries(outline)) {
    const parsed = deskConnection.safeParse(entry);
    if (parsed.success) desks[profileId] = parsed.data;
  }
  return desks;
}

type ViewsByProfile = Record<string, Record<string, TableViews>>;

/** The valid tables' views of the file's outline, and how many tables' views could not be used. */
function viewsOf(outline: Record<string, Record<string, unknown>>): { views: ViewsByProfile; left: number } {
  const views: ViewsByProfile = {};
  let left = 0;
  for (const [profileId, tables] of Object.entries(outline)) {
    for (const [table, entry] of Object.entries(tables)) {
      const parsed = tableViews.safeParse(entry);
      if (parsed.success && viewTable.safeParse(table).success) (views[profileId] ??= {})[table] = parsed.data;
      else left++;
    }
  }
  return { views, left };
}

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
  views: ViewsByProfile;
  desks: Record<string, DeskConnection>;
  deskHeads: Record<string, JournalHead>;
}

/** What the app and the CLI both write, so every save reads it from disk first. */
type SharedKey = 'journalHeads' | 'views' | 'desks' | 'deskHeads';

export class ProfileError extends Error {
  override name = 'ProfileError';
  constructor(
    readonly code:
      | 'PROFILE_NOT_FOUND'
      | 'PROFILE_INVALID'
      | 'PROFILE_BUILT_IN'
      | 'PROFILE_NAME_TAKEN'
      | 'VIEW_NOT_FOUND'
      | 'VIEWS_FULL',
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
    const fresh: Settings = {
      version: 1,
      activeProfileId: SANDBOX_PROFILE_ID,
      profiles: [],
      journalHeads: {},
      views: {},
      desks: {},
      deskHeads: {},
    };
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
    const views = viewsOf(outline.views);
    if (left > 0 || views.left > 0) {
      // The valid profiles and views stay in use; the file as it was is kept for whoever wants the others back.
      copyFileSync(file, aside);
      const what = [
        left > 0 ? (left === 1 ? 'One profile' : `${left} profiles`) : null,
        views.left > 0 ? (views.left === 1 ? "one table's saved views" : `${views.left} tables' saved views`) : null,
      ]
        .filter(Boolean)
        .join(' and ');
      const many = left + views.left > 1;
      recovered = {
        movedTo: aside,
        message:
          `${what[0]!.toUpperCase()}${what.slice(1)} in the settings file could not be used and ` +
          `${many ? 'were' : 'was'} left out; the rest is in use. The file as it was is kept at ${aside}.`,
      };
    }
    return {
      version: 1,
      activeProfileId: outline.activeProfileId,
      profiles,
      journalHeads: outline.journalHeads,
      desks: desksOf(outline.desks),
      deskHeads: outline.deskHeads,
      views: views.views,
    };
  }

  /**
   * Journal heads and saved views as the file holds them now: the app and the CLI each hold their own copy of the
   * settings (and each appends to journals), so these are always read from disk and carried over by every write.
   */
  function sharedOnDisk(): Pick<Settings, SharedKey> {
    const held = {
      journalHeads: settings.journalHeads,
      views: settings.views,
      desks: settings.desks,
      deskHeads: settings.deskHeads,
    };
    if (!existsSync(file)) return held;
    try {
      const outline = settingsFile.parse(JSON.parse(readFileSync(file, 'utf8')));
      return {
        journalHeads: outline.journalHeads,
        views: viewsOf(outline.views).views,
        desks: desksOf(outline.desks),
        deskHeads: outline.deskHeads,
      };
    } catch {
      return held;
    }
  }
  const headsOnDisk = () => sharedOnDisk().journalHeads;

  function save(next: Omit<Settings, SharedKey>, shared: Partial<Pick<Settings, SharedKey>> = {}) {
    ensurePrivateDir(dataDir);
    const written = { ...next, ...sharedOnDisk(), ...shared };
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
        syncConcurrency: SYNC_CONCURRENCY.default,
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

  const viewNotFound = (name: string) =>
    new ProfileError('VIEW_NOT_FOUND', `There is no saved view named "${name}" for this table.`);

  function putViews(profileId: string, table: string, next: TableViews): TableViews {
    const views = sharedOnDisk().views;
    save(settings, { views: { ...views, [profileId]: { ...views[profileId], [table]: next } } });
    return next;
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
      const views = { ...sharedOnDisk().views };
      delete views[id];
      save({ ...settings, profiles, activeProfileId }, { views });
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
      save(settings, { journalHeads: { ...headsOnDisk(), [profileId]: head } });
    },
    /** The desk a profile is joined to; null in local mode. */
    desk: (profileId: string): DeskConnection | null => sharedOnDisk().desks[profileId] ?? null,
    /** Joins a profile to a desk, or (null) leaves it for local mode. */
    setDesk(profileId: string, connection: DeskConnection | null): void {
      const desks = { ...sharedOnDisk().desks };
      if (connection) desks[profileId] = connection;
      else delete desks[profileId];
      save(settings, { desks });
    },
    deskHead: (profileId: string): JournalHead | null => sharedOnDisk().deskHeads[profileId] ?? null,
    setDeskHead(profileId: string, head: JournalHead): void {
      save(settings, { deskHeads: { ...sharedOnDisk().deskHeads, [profileId]: head } });
    },
    /** A table's saved views for a profile; none saved is an empty list. */
    views: (profileId: string, table: string): TableViews => sharedOnDisk().views[profileId]?.[table] ?? NO_VIEWS,
    /** Saves `view` (replacing one of the same name); refused past MAX_VIEWS_PER_TABLE. */
    saveView(profileId: string, table: string, view: SavedView): TableViews {
      const current = this.views(profileId, table);
      const next = withView(current, view);
      if (next.views.length > MAX_VIEWS_PER_TABLE) {
        throw new ProfileError(
          'VIEWS_FULL',
          `This table already has ${MAX_VIEWS_PER_TABLE} saved views; remove one before saving "${view.name}".`,
        );
      }
      return putViews(profileId, table, next);
    },
    removeView(profileId: string, table: string, name: string): TableViews {
      const current = this.views(profileId, table);
      if (!current.views.some((v) => sameName(v.name, name))) throw viewNotFound(name);
      return putViews(profileId, table, withoutView(current, name));
    },
    /** The view the table opens with, by name; null for the screen's own defaults. */
    setDefaultView(profileId: string, table: string, name: string | null): TableViews {
      const current = this.views(profileId, table);
      const found = name === null ? null : current.views.find((v) => sameName(v.name, name));
      if (found === undefined) throw viewNotFound(name!);
      return putViews(profileId, table, { ...current, defaultName: found?.name ?? null });
    },
  };
}
export type ProfileStore = ReturnType<typeof createProfileStore>;
