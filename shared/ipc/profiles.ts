/** Schemas of the `profiles.*` channels. A profile carries no secret; see `credentials.*`. */
import { z } from 'zod';
import { profile, profileFields } from '../profiles';
import type { DomainSchemas } from './contract';

const profileId = z.object({ id: z.string().min(1).max(64) }).strict();
const ok = z.object({ ok: z.literal(true) });

export const profilesChannels = {
  'profiles.list': { input: z.undefined(), output: z.object({ profiles: z.array(profile), activeId: z.string() }) },
  'profiles.create': { input: profileFields.strict(), output: profile },
  'profiles.update': {
    input: z.object({ id: z.string().min(1).max(64), fields: profileFields.strict() }).strict(),
    /** `secretRemoved`: the service's scheme, host or port changed, so main deleted the stored secret. */
    output: profile.extend({ secretRemoved: z.boolean() }),
  },
  'profiles.remove': { input: profileId, output: ok },
  'profiles.activate': { input: profileId, output: profile },
} satisfies DomainSchemas<'profiles'>;
