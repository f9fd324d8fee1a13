/**
 * Dates as the desk reads and types them: dd/mm/yyyy, whatever the machine's locale (a browser's date input
 * follows the OS, which shows mm/dd/yyyy on an en-US machine). Inside, a date stays `YYYY-MM-DD`.
 */
import { isCalendarDate } from '../../../shared/time';

/** `YYYY-MM-DD` as `dd/mm/yyyy`; no date (an empty filter field) as empty text. */
export function formatDdMmYyyy(date: string): string {
  if (date === '') return '';
  const [y, m, d] = date.split('-');
  return `${d}/${m}/${y}`;
}

const TYPED = /^\s*(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})\s*$/;

/** `dd/mm/yyyy` (also d/m/yyyy, with . or - between) as `YYYY-MM-DD`; null for anything else or no such day. */
export function parseDdMmYyyy(text: string): string | null {
  const m = TYPED.exec(text);
  if (!m) return null;
  const date = `${m[3]}-${m[2]!.padStart(2, '0')}-${m[1]!.padStart(2, '0')}`;
  return isCalendarDate(date) ? date : null;
}
