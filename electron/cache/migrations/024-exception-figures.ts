import type { Migration } from '../migrations';

export const migration: Migration = {
  version: 24,
  name: "each date's exception figures, kept for the Today screen",
  // Today's exception panel grouped every record that breaks a rule with its state on each read: 180,000 records at
  // 2,000,000 rows, over half a second. Each date's groups are kept instead, worked out again from the date's rows
  // (exception-figures.ts), never adjusted by deltas. Triggers list a date as stale whenever its records or their
  // states change, so no writer can forget to; a stale date is read from its rows until it is worked out again. The
  // triggers test for the date rather than INSERT OR IGNORE: an upsert's own conflict handling overrides a trigger's.
  sql: `
    CREATE TABLE exception_day_figures (
      date TEXT NOT NULL,
      flags INTEGER NOT NULL,
      state TEXT NOT NULL,
      assignee TEXT NOT NULL,
      records INTEGER NOT NULL,
      risk INTEGER NOT NULL,
      PRIMARY KEY (date, flags, state, assignee)
    ) WITHOUT ROWID;
    CREATE TABLE exception_days_stale (date TEXT PRIMARY KEY) WITHOUT ROWID;
    INSERT INTO exception_days_stale SELECT DISTINCT date FROM settlements WHERE exception_flags <> 0;

    CREATE TRIGGER settlements_exception_added AFTER INSERT ON settlements WHEN NEW.exception_flags <> 0
    BEGIN INSERT INTO exception_days_stale (date) SELECT NEW.date WHERE NOT EXISTS (SELECT 1 FROM exception_days_stale WHERE date = NEW.date); END;
    CREATE TRIGGER settlements_exception_changed
      AFTER UPDATE OF date, exception_flags, amount, settled_amount, vanished_at ON settlements
      WHEN OLD.exception_flags <> 0 OR NEW.exception_flags <> 0
    BEGIN
      INSERT INTO exception_days_stale (date) SELECT OLD.date WHERE NOT EXISTS (SELECT 1 FROM exception_days_stale WHERE date = OLD.date);
      INSERT INTO exception_days_stale (date) SELECT NEW.date WHERE NOT EXISTS (SELECT 1 FROM exception_days_stale WHERE date = NEW.date);
    END;
    CREATE TRIGGER settlements_exception_removed AFTER DELETE ON settlements WHEN OLD.exception_flags <> 0
    BEGIN INSERT INTO exception_days_stale (date) SELECT OLD.date WHERE NOT EXISTS (SELECT 1 FROM exception_days_stale WHERE date = OLD.date); END;

    CREATE TRIGGER exception_state_added AFTER INSERT ON settlement_exception_states
    BEGIN INSERT INTO exception_days_stale (date) SELECT NEW.date WHERE NOT EXISTS (SELECT 1 FROM exception_days_stale WHERE date = NEW.date); END;
    CREATE TRIGGER exception_state_changed AFTER UPDATE OF date, state, assignee ON settlement_exception_states
    BEGIN
      INSERT INTO exception_days_stale (date) SELECT OLD.date WHERE NOT EXISTS (SELECT 1 FROM exception_days_stale WHERE date = OLD.date);
      INSERT INTO exception_days_stale (date) SELECT NEW.date WHERE NOT EXISTS (SELECT 1 FROM exception_days_stale WHERE date = NEW.date);
    END;
    CREATE TRIGGER exception_state_removed AFTER DELETE ON settlement_exception_states
    BEGIN INSERT INTO exception_days_stale (date) SELECT OLD.date WHERE NOT EXISTS (SELECT 1 FROM exception_days_stale WHERE date = OLD.date); END;`,
};
