/**
 * Whether an IFSC exists, and its bank's name, offline: Razorpay's IFSC data set as its `ifsc` package ships it
 * (`src/IFSC.json`, every branch code by bank; `src/banknames.json`; `src/sublet.json` and `src/custom-sublets.json`,
 * the branches that belong to another bank than their first four letters say). Only the data is read: the
 * package's entry point loads `request` for Razorpay's web service, which the console does not call, so branch
 * details (address, city) are not known here.
 *
 * The data is about 1.1 MB of JSON: it is read in main on the first lookup, as a chunk of its own (the dynamic
 * import in ifsc-data.js), never at start-up and never in the renderer, which asks over IPC (`beneficiaries.ifsc`). The
 * form, the import preview and the CLI all ask this module, so they agree.
 *
 * An IFSC the list does not hold is a warning, not a refusal: the list is a published snapshot, and a branch opened
 * since is real before the list knows it. The shape (four letters, 0, six letters or digits) stays the form's
 * schema's to refuse (`shared/beneficiaries.ts`).
 */
import { IFSC } from '../../shared/api/common';
import type { IfscCheck } from '../../shared/beneficiaries';
import { loadIfscData, type IfscData } from './ifsc-data';

export type { IfscCheck };

export interface IfscDirectory {
  check(ifsc: string): IfscCheck;
}

function directoryOf({ branches, names, sublets, customSublets }: IfscData): IfscDirectory {
  // Built per bank on first use: one bank's Set is cheap, every bank's would be most of the data again.
  const sets = new Map<string, Set<number | string>>();
  const listed = (bank: string): Set<number | string> | null => {
    const list = branches[bank];
    if (!list) return null;
    let set = sets.get(bank);
    if (!set) sets.set(bank, (set = new Set(list)));
    return set;
  };
  // Longest prefix first, so "HDFC0CHB1" wins over a shorter key that also matches.
  const prefixes = Object.keys(customSublets).sort((a, b) => b.length - a.length);
  const bankCodeOf = (ifsc: string) =>
    sublets[ifsc] ?? customSublets[prefixes.find((p) => ifsc.startsWith(p)) ?? ''] ?? ifsc.slice(0, 4);

  return {
    check(raw) {
      const ifsc = raw.trim().toUpperCase();
      if (!IFSC.test(ifsc)) return { ifsc, bank: null, warning: null };
      const code = ifsc.slice(0, 4);
      const branch = ifsc.slice(5);
      const set = listed(code);
      if (!set) {
        return {
          ifsc,
          bank: null,
          warning: `No bank in Razorpay's IFSC list has the code ${code}: check the IFSC on a cheque or the bank's letter.`,
        };
      }
      // The list keeps all-digit branch codes as numbers ("000123" as 123).
      const known = /^\d+$/.test(branch) ? set.has(Number(branch)) : set.has(branch);
      const bank = names[bankCodeOf(ifsc)] ?? names[code] ?? null;
      if (known) return { ifsc, bank, warning: null };
      return {
        ifsc,
        bank,
        warning: `${bank ?? code} has no branch ${ifsc} in Razorpay's IFSC list: check the IFSC (a branch opened since the list was published is not in it yet).`,
      };
    },
  };
}

let loading: Promise<IfscDirectory> | null = null;

/** The IFSC directory, read on first use and kept. */
export function ifscDirectory(): Promise<IfscDirectory> {
  loading ??= loadIfscData().then(directoryOf);
  return loading;
}

/** One IFSC checked against the list. */
export async function checkIfsc(ifsc: string): Promise<IfscCheck> {
  return (await ifscDirectory()).check(ifsc);
}
