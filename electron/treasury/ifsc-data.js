/**
 * Razorpay's IFSC data set, read from the `ifsc` package on first use, each file a chunk of its own in the build.
 * Kept out of the TypeScript sources so the compiler never infers a type for 1.1 MB of JSON (a long pause on every
 * type check); ifsc-data.d.ts states the shape, and electron/treasury/ifsc.ts is the one reader.
 */
export async function loadIfscData() {
  const [branches, names, sublets, customSublets] = await Promise.all([
    import('ifsc/src/IFSC.json'),
    import('ifsc/src/banknames.json'),
    import('ifsc/src/sublet.json'),
    import('ifsc/src/custom-sublets.json'),
  ]);
  return {
    branches: branches.default,
    names: names.default,
    sublets: sublets.default,
    customSublets: customSublets.default,
  };
}
