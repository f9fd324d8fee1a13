/**
 * The desk database's migrations, oldest first: one file each, numbered, never edited once released (a change is
 * a new file). `desk init` applies those the database lacks (electron/desk/migrate.ts).
 */
import peopleAndRoles from './001-people-and-roles';
import journal from './002-journal';
import peopleFunctions from './003-people-functions';
import periods from './004-periods';
import exceptions from './005-exceptions';
import live from './006-live';
import reconciliation from './007-reconciliation';
import journalMirror from './008-journal-mirror';
import approvals from './009-approvals';
import settlementBatches from './010-settlement-batches';
import formats from './011-formats';
import gatewayScopedPublish from './012-gateway-scoped-publish';
import queueStatistics from './013-queue-statistics';

export interface DeskMigration {
  version: number;
  name: string;
  sql: string;
}

export const DESK_MIGRATIONS: readonly DeskMigration[] = [
  { version: 1, name: 'people and roles', sql: peopleAndRoles },
  { version: 2, name: 'journal', sql: journal },
  { version: 3, name: 'people functions', sql: peopleFunctions },
  { version: 4, name: 'periods', sql: periods },
  { version: 5, name: 'exceptions', sql: exceptions },
  { version: 6, name: 'live', sql: live },
  { version: 7, name: 'reconciliation', sql: reconciliation },
  { version: 8, name: 'journal mirror', sql: journalMirror },
  { version: 9, name: 'approvals', sql: approvals },
  { version: 10, name: 'settlement batches', sql: settlementBatches },
  { version: 11, name: 'formats', sql: formats },
  { version: 12, name: 'gateway-scoped publish', sql: gatewayScopedPublish },
  { version: 13, name: 'queue statistics', sql: queueStatistics },
];

/** The newest schema this console knows; a desk at a later version is read-only for it. */
export const DESK_SCHEMA_VERSION = DESK_MIGRATIONS[DESK_MIGRATIONS.length - 1]!.version;
