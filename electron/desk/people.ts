/** The desk's people: who is on it, in which role; an admin adds and removes them. */
import type pg from 'pg';
import type { DeskRole } from '../../shared/desk';
import { callForSeq } from './errors';
import { scramVerifier } from './scram';

export interface DeskPerson {
  login: string;
  role: DeskRole;
  addedAt: string;
  addedBy: string;
  removedAt: string | null;
}

export function createDeskPeople(pool: pg.Pool, consoleName: string) {
  const call = (sql: string, params: unknown[]) => callForSeq(pool, sql, params);
  return {
    async list(options: { removed?: boolean } = {}): Promise<DeskPerson[]> {
      const { rows } = await pool.query<{
        login: string;
        role: DeskRole;
        added_at: Date;
        added_by: string;
        removed_at: Date | null;
      }>(
        `SELECT login, role, added_at, added_by, removed_at FROM desk.people
          WHERE $1 OR removed_at IS NULL ORDER BY login`,
        [options.removed ?? false],
      );
      return rows.map((r) => ({
        login: r.login,
        role: r.role,
        addedAt: r.added_at.toISOString(),
        addedBy: r.added_by,
        removedAt: r.removed_at?.toISOString() ?? null,
      }));
    },
    /** Adds a person with their first password (sent as a SCRAM verifier); the journal entry's number. */
    add: (login: string, role: DeskRole, password: string) =>
      call('SELECT desk.add_person($1, $2, $3, $4) AS seq', [login, role, scramVerifier(password), consoleName]),
    remove: (login: string) => call('SELECT desk.remove_person($1, $2) AS seq', [login, consoleName]),
  };
}
export type DeskPeople = ReturnType<typeof createDeskPeople>;
