/**
 * Does the name a UPI address is registered to resemble the payee's name? A warning, never a refusal: holders'
 * names come abbreviated, reordered and misspelt, so the rule errs towards "resembles" and only flags names that
 * share nothing.
 *
 * The rule, on both names in capitals with punctuation removed and the words that say nothing about who it is
 * left out (PVT, PRIVATE, LTD, LIMITED, LLP, CO, COMPANY, INC, CORP, THE, AND, M/S, MR, MRS, MS, DR, SHRI, SMT):
 *   1. a word of one equals a word of the other, or one starts with the other and the shorter has 3+ letters;
 *   2. or the initials of one (2+ words) are a word of the other ("TVPL" for "Test Vendor Pvt Ltd" counts the
 *      noise words too, as people write them);
 *   3. or the two names, spaces removed, share at least 60% of their letter pairs (Sørensen–Dice on bigrams),
 *      which takes in a one-letter typo ("ISHAN" / "ISHAAN").
 * A name with no word left after that (only noise words) cannot be judged and counts as resembling.
 */
const NOISE = new Set([
  'PVT',
  'PRIVATE',
  'LTD',
  'LIMITED',
  'LLP',
  'CO',
  'COMPANY',
  'INC',
  'CORP',
  'THE',
  'AND',
  'MS',
  'MR',
  'MRS',
  'DR',
  'SHRI',
  'SMT',
]);

function words(name: string): string[] {
  return name
    .toUpperCase()
    .replace(/M\/S\.?/g, ' ')
    .replace(/[^A-Z0-9 ]+/g, ' ')
    .split(' ')
    .filter((w) => w !== '');
}

function bigrams(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length - 1; i++) out.push(text.slice(i, i + 2));
  return out;
}

/** Sørensen–Dice coefficient of two texts' letter pairs, from 0 (none shared) to 1 (the same pairs). */
export function bigramSimilarity(a: string, b: string): number {
  const x = bigrams(a);
  const y = bigrams(b);
  if (x.length === 0 || y.length === 0) return a === b ? 1 : 0;
  const pool = new Map<string, number>();
  for (const g of y) pool.set(g, (pool.get(g) ?? 0) + 1);
  let shared = 0;
  for (const g of x) {
    const n = pool.get(g) ?? 0;
    if (n > 0) {
      shared++;
      pool.set(g, n - 1);
    }
  }
  return (2 * shared) / (x.length + y.length);
}

export const SIMILARITY_THRESHOLD = 0.6;

export function namesResemble(payee: string, holder: string): boolean {
  const allA = words(payee);
  const allB = words(holder);
  const a = allA.filter((w) => !NOISE.has(w));
  const b = allB.filter((w) => !NOISE.has(w));
  if (a.length === 0 || b.length === 0) return true;
  const related = (x: string, y: string) =>
    x === y || (Math.min(x.length, y.length) >= 3 && (x.startsWith(y) || y.startsWith(x)));
  if (a.some((x) => b.some((y) => related(x, y)))) return true;
  const initials = (ws: string[]) => (ws.length >= 2 ? ws.map((w) => w[0]).join('') : null);
  for (const [ws, other] of [
    [allA, allB],
    [a, b],
    [allB, allA],
    [b, a],
  ] as const) {
    const i = initials(ws);
    if (i !== null && other.includes(i)) return true;
  }
  return bigramSimilarity(a.join(''), b.join('')) >= SIMILARITY_THRESHOLD;
}
