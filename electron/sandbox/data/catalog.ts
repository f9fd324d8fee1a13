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
  /**
   * Branches of the bank that exist (Razorpay's IFSC list, which the console checks every IFSC against): the
   * sandbox's payees and accounts bank at these, so its own data never draws an "IFSC not listed" warning.
   * test/unit/ifsc.test.ts checks each against the list.
   */
  branches: readonly string[];
}

export const BANKS: readonly Bank[] = [
  {
    code: 'HDFC',
    title: 'HDFC Bank',
    branches: ['HDFC0000001', 'HDFC0000051', 'HDFC0000109', 'HDFC0000213', 'HDFC0000317', 'HDFC0000417'],
  },
  {
    code: 'ICIC',
    title: 'ICICI Bank',
    branches: ['ICIC0000001', 'ICIC0000052', 'ICIC0000126', 'ICIC0000251', 'ICIC0000351', 'ICIC0000455'],
  },
  {
    code: 'SBIN',
    title: 'State Bank of India',
    branches: ['SBIN0000001', 'SBIN0000051', 'SBIN0000101', 'SBIN0000201', 'SBIN0000301', 'SBIN0000400'],
  },
  {
    code: 'UTIB',
    title: 'Axis Bank',
    branches: ['UTIB0000001', 'UTIB0000052', 'UTIB0000101', 'UTIB0000201', 'UTIB0000301', 'UTIB0000400'],
  },
  {
    code: 'KKBK',
    title: 'Kotak Mahindra Bank',
    branches: ['KKBK0000131', 'KKBK0000203', 'KKBK0000286', 'KKBK0000638', 'KKBK0000871', 'KKBK0001424'],
  },
  {
    code: 'PUNB',
    title: 'Punjab National Bank',
    branches: ['PUNB0000010', 'PUNB0001300', 'PUNB0002600', 'PUNB0005130', 'PUNB0007710', 'PUNB0010220'],
  },
  {
    code: 'BARB',
    title: 'Bank of Baroda',
    branches: ['BARB0AAMBUR', 'BARB0AHMEDN', 'BARB0ALIDEL', 'BARB0ANCHAL', 'BARB0ASILME', 'BARB0BAHPAT'],
  },
  {
    code: 'YESB',
    title: 'Yes Bank',
    branches: ['YESB0000001', 'YESB0000051', 'YESB0000101', 'YESB0000201', 'YESB0000303', 'YESB0000403'],
  },
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
