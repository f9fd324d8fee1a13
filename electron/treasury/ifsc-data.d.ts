/** The shape of Razorpay's IFSC data set as ifsc-data.js reads it. */
export interface IfscData {
  /** Branch codes by bank code: an all-digit branch code as a number ("000123" as 123), any other as text. */
  branches: Record<string, readonly (number | string)[]>;
  /** Bank names by bank code. */
  names: Record<string, string>;
  /** Whole IFSCs run by another bank than their first four letters say, to that bank's code. */
  sublets: Record<string, string>;
  /** IFSC prefixes run by another bank, to that bank's code. */
  customSublets: Record<string, string>;
}

export function loadIfscData(): Promise<IfscData>;
