import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Git-ignored; the harness keeps its builds here so a failed run can be inspected. */
export const HARNESS_CACHE = fileURLToPath(new URL('../../test-results/harness/', import.meta.url));
