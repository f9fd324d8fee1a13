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

/** https everywhere; plain http only to this machine (a local gateway emulator, the sandbox). */
const serviceUrl = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .refine((text) => {
    try {
      const u = new URL(text);
      return (
        !u.username &&
        !u.password &&
        !u.search &&
        !u.hash &&
        (u.protocol === 'https:' || (u.protocol === 'http:' && LOOPBACK.test(u.hostname)))
      );
    } catch {
      return false;
    }
  }, 'must be an https:// address (http:// only for this machine), with no user name, query or fragment')
  .transform((text) => text.replace(/\/+$/, ''));

export const profileFields = z.object({
  name: z.string().trim().min(1, 'must not be empty').max(60, 'must be at most 60 characters'),
  environment: z.enum(ENVIRONMENTS),
  baseUrl: serviceUrl,
  aiUrl: serviceUrl,
  key: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  hashScheme: z.enum(HASH_SCHEMES).default('sha512'),
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
