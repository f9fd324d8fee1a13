/** The column and value helpers every export's sheets are declared with. */
import { epochMsToIst } from '../../shared/time';
import type { ColumnSpec } from './xlsx-writer';

export const textColumn = (header: string, width?: number): ColumnSpec => ({ header, type: 'text', width });

/** Text that names something (UTR, account number, transaction id): digits in it are not a number. */
export const idColumn = (header: string, width?: number): ColumnSpec => ({
  header,
  type: 'text',
  width,
  identifier: true,
});

/** Amounts are rupees with the currency in the header, as accountants label them. */
export const moneyColumn = (header: string): ColumnSpec => ({ header: `${header} (INR)`, type: 'money' });

/** A time the cache keeps as ISO UTC, shown as the IST wall clock with the zone in the header. */
export const istColumn = (header: string): ColumnSpec => ({ header: `${header} (IST)`, type: 'datetime' });

export const istOfIso = (iso: string): string => epochMsToIst(Date.parse(iso));

/** Fields the contract does not name, as JSON text; nothing when there are none. */
export const jsonOrNull = (extra: Record<string, unknown> | null | undefined): string | null =>
  extra ? JSON.stringify(extra) : null;
