/**
 * A profile: which service the console talks to and as which merchant. The secret is not part of it; it
 * lives in the OS keychain under the profile's id. Profiles are settings; the built-in Sandbox profile is
 * not stored at all but made at start-up from the embedded sandbox, so it always points at the live one.
 */
import { z } from 'zod';

export const HASH_SCHEMES = ['sha512', 'hmac-sha256'] as const;
export type HashScheme = (typeof HASH_SCHEMES)[number];

export const ENVIRONMENTS = ['sandbox', 'production', 'custom'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export const SANDBOX_PROFILE_ID = 'sandbox';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;

function isServiceAddress(u: URL): boolean {
  return (
    !u.username &&
    !u.password &&
    !u.search &&
    !u.hash &&
    u.hostname !== '' &&
    (u.protocol === 'https:' || (u.protocol === 'http:' && LOOPBACK.test(u.hostname)))
  );
}

/**
 * https everywhere; plain http only to this machine (a local gateway emulator, the sandbox). What is stored is the
 * parsed address in its canonical form (scheme and host lower-case, default port dropped, `\\` read as `/`, full-width
 * dots folded, a non-ASCII host in punycode), never the text as typed, so what main connects to and what the user is
 * shown are the same address.
 */
const serviceUrl = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(2048, 'must be at most 2048 characters')
  .transform((text, ctx) => {
    const u = URL.canParse(text) ? new URL(text) : null;
    if (!u || !isServiceAddress(u)) {
      ctx.addIssue({
        code: 'custom',
        message: 'must be an https:// address (http:// only for this machine), with no user name, query or fragment',
      });
      return z.NEVER;
    }
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
  });

/** The scheme, host and port of a stored address: a secret belongs to one origin and is never sent to another. */
export function originOf(url: string): string {
  return new URL(url).origin;
}

/** A host the parser turned into punycode had non-ASCII letters: it may be a look-alike of a familiar name. */
export function hasPunycodeHost(url: string): boolean {
  return new URL(url).hostname.split('.').some((label) => label.startsWith('xn--'));
}

/**
 * Control characters and invisible formatting (bidi overrides, zero-width joiners) can make a name read as another
 * one in a list or a confirmation; none belongs in a profile name or a merchant key.
 */
const VISIBLE_TEXT = /^[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}]*$/u;
const INVISIBLE_MESSAGE = 'must not contain control characters or invisible formatting characters';

/**
 * Settlement pages a sync asks at once (docs/performance/sync-concurrency.md). The interface states no rate limit, so
 * the default is what latency asks for; a deployment that limits requests sets fewer on its profile, and never more
 * than the client's connections per host are open.
 */
export const SYNC_CONCURRENCY = { default: 4, max: 8 } as const;
const SYNC_CONCURRENCY_MESSAGE = `must be a whole number of pages from 1 to ${SYNC_CONCURRENCY.max}`;

export const profileFields = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(60, 'must be at most 60 characters')
    .regex(VISIBLE_TEXT, INVISIBLE_MESSAGE),
  environment: z.enum(ENVIRONMENTS),
  baseUrl: serviceUrl,
  aiUrl: serviceUrl,
  key: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(200, 'must be at most 200 characters')
    .regex(VISIBLE_TEXT, INVISIBLE_MESSAGE),
  hashScheme: z.enum(HASH_SCHEMES).default('sha512'),
  syncConcurrency: z
    .number({ message: SYNC_CONCURRENCY_MESSAGE })
    .int(SYNC_CONCURRENCY_MESSAGE)
    .min(1, SYNC_CONCURRENCY_MESSAGE)
    .max(SYNC_CONCURRENCY.max, SYNC_CONCURRENCY_MESSAGE)
    .default(SYNC_CONCURRENCY.default),
});
export type ProfileFields = z.input<typeof profileFields>;

export const profile = profileFields.extend({
  id: z.string().regex(/^[a-z0-9-]{1,64}$/),
  builtIn: z.boolean(),
});
export type Profile = z.output<typeof profile>;

/** A new or replaced merchant secret, as the user types it. */
export const secretInput = z.string().min(1, 'must not be empty').max(512, 'must be at most 512 characters');

export const CONNECTION_FAILURES = [
  'no_secret',
  'keychain_unavailable',
  'wrong_secret',
  'hash_rejected',
  'unreachable',
  'timeout',
  'tls',
  'service_error',
  'unexpected_response',
] as const;

/** "Test connection": payout accounts answered, or exactly why not. */
export const connectionTestResult = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    ms: z.number(),
    gateways: z.array(z.string()),
    failingGateways: z.array(z.string()),
  }),
  z.object({ ok: z.literal(false), reason: z.enum(CONNECTION_FAILURES), message: z.string() }),
]);
export type ConnectionTestResult = z.output<typeof connectionTestResult>;
