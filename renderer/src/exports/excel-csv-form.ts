/**
 * How the "Excel-safe CSV" button writes identifiers: the person's choice in Settings, kept in the renderer's storage
 * as the tables' columns and density are (it is about the spreadsheet on this computer, not a profile or the desk).
 * The tab form by default: every spreadsheet keeps it as text. The `="…"` form reads clean in Excel and LibreOffice,
 * but any other reader of the file sees the `="` and `"`, so it is asked for, never assumed.
 */
import type { CsvIdForm } from '../../../shared/exports';
import { useStoredSetting } from '../ui/stored-setting';

export type ExcelCsvForm = Extract<CsvIdForm, 'tab' | 'formula'>;

const KEY = 'payout-console.excel-csv-ids';
const read = (text: string | null): ExcelCsvForm => (text === 'formula' ? 'formula' : 'tab');
const write = (form: ExcelCsvForm) => form;

/** The form the Excel-safe CSV uses, and the function that changes it. */
export function useExcelCsvForm(): [ExcelCsvForm, (form: ExcelCsvForm) => void] {
  return useStoredSetting(KEY, read, write);
}
