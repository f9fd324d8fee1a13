/**
 * Fixed reference data the seeded records draw from. Kept apart from the generators so that changing a
 * list of names never changes how the generators consume randomness elsewhere.
 */

export interface GatewayInfo {
  code: string;
  name: string;
  /** Payout accounts of this gateway answer the per-gateway INTERNAL_SERVER_ERROR (the document's sample). */
  accountsFail: boolean;
}

/** Settlement record i belongs to GATEWAYS[i % length], so a `pg` filter maps straight onto indices. */
export const GATEWAYS: readonly GatewayInfo[] = [
  { code: 'razorpay', name: 'Razorpay', accountsFail: false },
  { code: 'cashfree', name: 'Cashfree', accountsFail: false },
  { code: 'payu', name: 'PayU', accountsFail: false },
  { code: 'easebuzz', name: 'Easebuzz', accountsFail: true },
];

export interface Bank {
  code: string;
  title: string;
  ifscPrefix: string;
}

export const BANKS: readonly Bank[] = [
  { code: 'HDFC', title: 'HDFC Bank', ifscPrefix: 'HDFC' },
  { code: 'ICIC', title: 'ICICI Bank', ifscPrefix: 'ICIC' },
  { code: 'SBIN', title: 'State Bank of India', ifscPrefix: 'SBIN' },
  { code: 'UTIB', title: 'Axis Bank', ifscPrefix: 'UTIB' },
  { code: 'KKBK', title: 'Kotak Mahindra Bank', ifscPrefix: 'KKBK' },
  { code: 'PUNB', title: 'Punjab National Bank', ifscPrefix: 'PUNB' },
  { code: 'BARB', title: 'Bank of Baroda', ifscPrefix: 'BARB' },
  { code: 'YESB', title: 'Yes Bank', ifscPrefix: 'YESB' },
];

/** UPI handles the sandbox treats as existing; any other handle is a well-formed but unknown VPA. */
export const UPI_HANDLES: Readonly<Record<string, string>> = {
  okhdfcbank: 'Google Pay (HDFC Bank)',
  okicici: 'Google Pay (ICICI Bank)',
  oksbi: 'Google Pay (SBI)',
  ybl: 'PhonePe',
  ibl: 'PhonePe (ICICI)',
  axl: 'PhonePe (Axis)',
  paytm: 'Paytm',
  upi: 'BHIM',
};

export const WALLETS: readonly (readonly [string, string])[] = [
  ['paytm', 'Paytm Wallet'],
  ['mobikwik', 'MobiKwik'],
  ['amazonpay', 'Amazon Pay'],
  ['freecharge', 'Freecharge'],
];

export const FIRST_NAMES = [
  'Aarav',
  'Priya',
  'Rohan',
  'Ananya',
  'Vikram',
  'Meera',
  'Arjun',
  'Kavya',
  'Ishaan',
  'Diya',
  'Rahul',
  'Sneha',
] as const;
export const LAST_NAMES = [
  'Sharma',
  'Iyer',
  'Patel',
  'Reddy',
  'Nair',
  'Gupta',
  'Khan',
  'Mehta',
  'Das',
  'Singh',
  'Menon',
  'Joshi',
] as const;
export const CITIES: readonly (readonly [string, string, string])[] = [
  ['Mumbai', 'Maharashtra', '400001'],
  ['Bengaluru', 'Karnataka', '560001'],
  ['Chennai', 'Tamil Nadu', '600001'],
  ['New Delhi', 'Delhi', '110001'],
  ['Pune', 'Maharashtra', '411001'],
  ['Hyderabad', 'Telangana', '500001'],
  ['Kolkata', 'West Bengal', '700001'],
  ['Ahmedabad', 'Gujarat', '380001'],
];

/**
 * Reference rates as decimal text (units of `to` per one unit of INR's peers), fixed so that answers
 * never drift. Conversions go through INR: rate(from -> to) = INR_PER[from] / INR_PER[to].
 */
export const INR_PER: Readonly<Record<string, string>> = {
  INR: '1',
  USD: '83.25',
  EUR: '90.10',
  GBP: '105.40',
  AED: '22.67',
  SGD: '61.80',
  JPY: '0.5590',
  AUD: '54.95',
};
