/** Schemas of the `app.*` channels: what the console is, which profile is active, whether the service answers. */
import { z } from 'zod';
import { ENVIRONMENTS } from '../profiles';
import type { DomainSchemas } from './contract';

export const activeProfile = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  environment: z.enum(ENVIRONMENTS),
  baseUrl: z.url({ protocol: /^https?$/ }),
});

/** Learnt from real request outcomes: a request that got an answer means online, one that could not reach the service means offline. */
export const connectivity = z.object({
  state: z.enum(['unknown', 'online', 'offline']),
  /** ISO time of the request that set the state. */
  since: z.string().nullable(),
  /** For offline: the user-facing reason of the last failure. */
  reason: z.string().optional(),
});
export type Connectivity = z.infer<typeof connectivity>;

export const appChannels = {
  'app.info': {
    input: z.undefined(),
    output: z.object({
      appVersion: z.string().min(1),
      profile: activeProfile,
    }),
  },
  'app.connectivity': { input: z.undefined(), output: connectivity },
} satisfies DomainSchemas<'app'>;

export type ActiveProfile = z.infer<typeof activeProfile>;
