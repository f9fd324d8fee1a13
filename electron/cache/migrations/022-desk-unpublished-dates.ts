import type { Migration } from '../migrations';

export const migration: Migration = {
  version: 22,
  name: 'dates not yet published to the desk',
  // A date synced while the desk could not be reached: its exceptions go up when the desk answers again, so one
  // person's sync still makes them everyone's (treasury/exception-queue.ts publishPending).
  sql: `CREATE TABLE desk_unpublished_dates (date TEXT PRIMARY KEY, since TEXT NOT NULL) WITHOUT ROWID;`,
};
