/**
 * File sizes for people. Decimal units (1 MB = 1,000,000 bytes), as file managers on Linux and macOS show them,
 * so the figure here matches the one the user sees next to the file on disk.
 */
import { formatCount } from '../../../shared/format';

const UNITS = ['kB', 'MB', 'GB', 'TB'] as const;

/** Whole bytes as "512 bytes" or "12.4 MB", with one decimal. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  const tenthsOf = (unit: number) => Math.round((bytes * 10) / 1000 ** (unit + 1));
  let unit = 0;
  // Rounded before the unit is chosen, so 999,960 bytes reads "1.0 MB" and never "1000.0 kB".
  while (unit < UNITS.length - 1 && tenthsOf(unit) >= 10_000) unit += 1;
  const tenths = tenthsOf(unit);
  return `${Math.trunc(tenths / 10)}.${tenths % 10} ${UNITS[unit]}`;
}

/** The exact count, grouped the way the console groups every number (en-IN). */
export function formatExactBytes(bytes: number): string {
  return `${formatCount(bytes)} ${bytes === 1 ? 'byte' : 'bytes'}`;
}
