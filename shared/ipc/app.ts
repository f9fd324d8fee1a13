/** Schemas of the `app.*` channels: what the console is and which API profile it is talking to. */
import { z } from 'zod';
import type { DomainSchemas } from './contract';

export const profileEnvironment = z.enum(['sandbox', 'production', 'custom']);

export const activeProfile = z.object({
  name: z.string().min(1),
  environment: profileEnvironment,
  baseUrl: z.url({ protocol: /^https?$/ }),
});

export const appChannels = {
  'app.info': {
    input: z.undefined(),
    output: z.object({
      appVersion: z.string().min(1),
      profile: activeProfile,
    }),
  },
} satisfies DomainSchemas<'app'>;

export type ProfileEnvironment = z.infer<typeof profileEnvironment>;
export type ActiveProfile = z.infer<typeof activeProfile>;
