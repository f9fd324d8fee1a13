/** Types of scripts/package.mjs for its test. */
export declare function builderArgs(env: Record<string, string | undefined>): string[];
