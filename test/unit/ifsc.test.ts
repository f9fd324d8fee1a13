/**
 * The IFSC directory (electron/treasury/ifsc.ts) against Razorpay's data set as the `ifsc` package ships it: a
 * listed branch gives its bank's name, a branch or bank code the list lacks is a warning naming why, a sublet branch
 * gives the bank that runs it, and a code of the wrong shape is left to the form's schema. The sandbox's own payees
 * and accounts bank at branches that exist.
 */
import { describe, expect, it } from 'vitest';
import { BANKS } from '../../electron/sandbox/data/catalog';
import { seedState } from '../../electron/sandbox/seed';
import { checkIfsc } from '../../electron/treasury/ifsc';
import { TEST_TODAY } from '../support/clock';

describe('IFSC directory', () => {
  it('names the bank of a listed branch, whatever the case it was typed in', async () => {
    expect(await checkIfsc('HDFC0000001')).toEqual({ ifsc: 'HDFC0000001', bank: 'HDFC Bank', warning: null });
    expect(await checkIfsc('sbin0000001')).toEqual({ ifsc: 'SBIN0000001', bank: 'State Bank of India', warning: null });
    // A branch code with letters is listed as text, not as a number.
    expect((await checkIfsc('BARB0AAMBUR')).bank).toBe('Bank of Baroda');
  });

  it('warns, naming why, of a branch the list does not hold and of a bank code no bank has', async () => {
    const branch = await checkIfsc('HDFC0ZZZZZZ');
    expect(branch.bank).toBe('HDFC Bank');
    expect(branch.warning).toBe(
      "HDFC Bank has no branch HDFC0ZZZZZZ in Razorpay's IFSC list: check the IFSC (a branch opened since the list was published is not in it yet).",
    );
    const bank = await checkIfsc('QQQQ0000001');
    expect(bank).toEqual({
      ifsc: 'QQQQ0000001',
      bank: null,
      warning: "No bank in Razorpay's IFSC list has the code QQQQ: check the IFSC on a cheque or the bank's letter.",
    });
  });

  it('names the bank that runs a sublet branch, not the bank whose code it carries', async () => {
    // APBL0001001 is listed under APBL (the sponsor bank) and run by the TSDX co-operative bank (sublet.json).
    const sublet = await checkIfsc('APBL0001001');
    expect(sublet.warning).toBeNull();
    expect(sublet.bank).not.toBe((await checkIfsc('APBL0000001')).bank);
  });

  it('leaves a code of the wrong shape to the form, with neither a bank nor a warning', async () => {
    expect(await checkIfsc('HDFC1234')).toEqual({ ifsc: 'HDFC1234', bank: null, warning: null });
  });
});

describe("the sandbox's IFSCs", () => {
  it('are listed branches of the bank the catalog names', async () => {
    for (const bank of BANKS) {
      for (const ifsc of bank.branches)
        expect(await checkIfsc(ifsc)).toEqual({ ifsc, bank: bank.title, warning: null });
    }
  });

  it('are what its seeded payees and payout accounts use, under several seeds', async () => {
    for (const seed of [1, 3, 42]) {
      const state = seedState(seed, TEST_TODAY);
      const used = [
        ...[...state.beneficiaries.values()].map((b) => b.ifsc),
        ...state.gatewayAccounts.flatMap((g) => g.accounts.map((a) => a.ifsc_code)),
      ].filter((ifsc) => ifsc !== '');
      expect(used.length).toBeGreaterThan(0);
      for (const ifsc of used) expect((await checkIfsc(ifsc)).warning, ifsc).toBeNull();
    }
  });
});
