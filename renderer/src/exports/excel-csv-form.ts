/**
 * How the "Excel-safe CSV" button writes identifiers: the person's choice in Settings, kept in the renderer's storage
 * as the tables' columns and density are (it is about the spreadsheet on this computer, not a profile or the desk).
 * The tab form by default: every spreadsheet keeps it as text. The `="…"` form reads clean in Excel and LibreOffice,
 * but any other reader of the file sees the `="` and `"`, so it is asked for, never assumed.
 */
import { useCallback, useSyncExternalStore } from 'react';
import type { CsvIdForm } from '../../../shared/exports';

export type ExcelCsvForm = Extract<CsvIdForm, 'tab' | 'formula'>;

const KEY = 'payout-console.excel-csv-ids';
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another window of the console changing it.
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

function readStored(): ExcelCsvForm {
  try {
    return localStorage.getItem(KEY) === 'formula' ? 'formula' : 'tab';
  } catch {
    return 'tab';
  }
}

/** The form the Excel-safe CSV uses, and the function that changes it. */
export function useExcelCsvForm(): [ExcelCsvForm, (form: ExcelCsvForm) => void] {
  const form = useSyncExternalStore(subscribe, readStored);
  const choose = useCallback((next: ExcelCsvForm) => {
    try {
      localStorage.setItem(KEY, next);
    } catch {
      // Storage refused: the button keeps the form it had.
    }
    for (const listener of listeners) listener();
  }, []);
  return [form, choose];
}
