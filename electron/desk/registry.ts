/**
 * Each profile's desk, as the core sees it: none (local mode), or one opened on first use with the person's
 * password from the keychain, listening for the desk's notices while it is open. A desk that cannot be reached is
 * said so with the reason, and opened again on the next use, so the console works on with its local cache and
 * API-only actions meanwhile. The password is the keychain's alone: it never reaches settings, logs or the renderer.
 */
import { hostname } from 'node:os';
import type { DeskConnection, DeskState } from '../../shared/desk';
import type { JournalHead } from '../journal/journal';
import type { Logger } from '../log';
import type { SecretStore } from '../vault/secret-store';
import { openDesk, type Desk, type DeskStatus, type DeskTopic } from './desk';
import type { DeskVerifyResult } from './journal';
import { DeskError, deskErrorOf } from './errors';

/** The keychain account of a profile's desk password, beside the profile's API secret (its id). */
export const deskPasswordAccount = (profileId: string) => `desk:${profileId}`;

export interface DeskSettingsStore {
  desk(profileId: string): DeskConnection | null;
  setDesk(profileId: string, connection: DeskConnection | null): void;
  /** The desk journal's head this console saw last, kept outside the database. */
  deskHead(profileId: string): JournalHead | null;
  setDeskHead(profileId: string, head: JournalHead): void;
}

export interface DeskRegistryOptions {
  settings: DeskSettingsStore;
  vault: SecretStore;
  log: Logger;
  /** This console's name in the journal and in pg_stat_activity: the machine's, unless a test names it. */
  consoleName?: string;
  /** Told of every change on a profile's desk (any console's), and of the desk being lost or found again. */
  onChange?: (profileId: string, topic: DeskTopic | 'connection') => void;
  /**
   * Told when a profile's desk is opened and whenever its connection comes back: the journal mirror sends what
   * waited meanwhile (journal/desk-mirror.ts).
   */
  onLive?: (profileId: string) => void;
  /** How many of a profile's journal entries wait for the desk's journal. */
  journalWaiting?: (profileId: string) => number;
}

export function createDeskRegistry(options: DeskRegistryOptions) {
  const consoleName = options.consoleName ?? hostname();
  const open = new Map<string, Promise<Desk>>();
  const lastFailure = new Map<string, string>();

  async function connect(profileId: string, connection: DeskConnection): Promise<Desk> {
    const password = await options.vault.get(deskPasswordAccount(profileId));
    if (password === null) {
      throw new DeskError('DESK_ROLE', 'No desk password is in the keychain for this profile: join the desk again.');
    }
    const desk = await openDesk({
      connection,
      password,
      console: consoleName,
      onError: (e) => options.log.warn('desk connection lost', { profileId, error: e.message }),
    });
    await desk.listen(
      (topic) => options.onChange?.(profileId, topic),
      (state, error) => {
        if (state === 'lost') options.log.warn('desk notices lost', { profileId, error: error?.message });
        options.onChange?.(profileId, 'connection');
        if (state === 'live') options.onLive?.(profileId);
      },
    );
    return desk;
  }

  return {
    consoleName,

    /** Whether the profile is joined to a desk, without opening it. */
    joined: (profileId: string): boolean => options.settings.desk(profileId) !== null,

    /** The profile's desk, opened if need be; null in local mode. Throws a DeskError when it cannot be reached. */
    async for(profileId: string): Promise<Desk | null> {
      const connection = options.settings.desk(profileId);
      if (!connection) return null;
      let pending = open.get(profileId);
      if (!pending) {
        pending = connect(profileId, connection);
        open.set(profileId, pending);
      }
      try {
        const desk = await pending;
        lastFailure.delete(profileId);
        return desk;
      } catch (e) {
        // Tried again on the next use: the server may be back by then.
        if (open.get(profileId) === pending) open.delete(profileId);
        const error = deskErrorOf(e);
        lastFailure.set(profileId, error instanceof Error ? error.message : String(error));
        throw error;
      }
    },

    /** What the status bar and `desk status` say of a profile's desk; `localPerson` names the person alone. */
    async state(profileId: string, localPerson: string): Promise<DeskState> {
      const connection = options.settings.desk(profileId);
      if (!connection) return { mode: 'local', person: localPerson };
      const where = {
        mode: 'desk' as const,
        host: connection.host,
        database: connection.database,
        person: connection.user,
        journalWaiting: options.journalWaiting?.(profileId) ?? 0,
      };
      try {
        const desk = (await this.for(profileId))!;
        await desk.ping();
        const status = desk.status();
        return {
          ...where,
          reachable: true,
          role: status.role,
          writable: status.writable,
          reason: status.readOnlyReason,
        };
      } catch (e) {
        return {
          ...where,
          reachable: false,
          role: null,
          writable: false,
          reason: e instanceof Error ? e.message : String(e),
        };
      }
    },

    /**
     * Joins a profile to a desk: the connection is tried with the password first, and only a desk that answers is
     * saved (the password to the keychain, the settings to the profile's).
     */
    async join(profileId: string, connection: DeskConnection, password: string): Promise<DeskStatus> {
      const desk = await openDesk({ connection, password, console: consoleName });
      const status = desk.status();
      await desk.close();
      await this.leave(profileId);
      await options.vault.set(deskPasswordAccount(profileId), password);
      options.settings.setDesk(profileId, connection);
      return status;
    },

    /** Back to local mode: the connection closed, the settings and the password removed. */
    async leave(profileId: string): Promise<void> {
      const pending = open.get(profileId);
      open.delete(profileId);
      if (pending) await pending.then((d) => d.close()).catch(() => undefined);
      options.settings.setDesk(profileId, null);
      await options.vault.delete(deskPasswordAccount(profileId));
    },

    /**
     * The desk journal's whole chain, checked against the head this console saw last; a whole chain moves that head
     * on. Null in local mode.
     */
    async verify(profileId: string): Promise<DeskVerifyResult | null> {
      const desk = await this.for(profileId);
      if (!desk) return null;
      const checked = await desk.journal.verify(options.settings.deskHead(profileId));
      if (checked.ok) options.settings.setDeskHead(profileId, checked.head);
      return checked;
    },

    async closeAll(): Promise<void> {
      const all = [...open.values()];
      open.clear();
      await Promise.all(all.map((p) => p.then((d) => d.close()).catch(() => undefined)));
    },
  };
}
export type DeskRegistry = ReturnType<typeof createDeskRegistry>;
