/**
 * Schemas of the `credentials.*` channels. The renderer may set, replace, test and delete a profile's secret,
 * and see whether one is stored; no output schema has a field that could carry the secret back.
 */
import { z } from 'zod';
import { connectionTestResult, secretInput } from '../profiles';
import type { DomainSchemas } from './contract';

const forProfile = z.object({ profileId: z.string().min(1).max(64) }).strict();

export const credentialStatus = z.object({
  hasSecret: z.boolean(),
  keychainAvailable: z.boolean(),
  keychainProblem: z.string().optional(),
});

export const credentialsChannels = {
  'credentials.status': { input: forProfile, output: credentialStatus },
  'credentials.set': {
    input: z.object({ profileId: z.string().min(1).max(64), secret: secretInput }).strict(),
    output: credentialStatus,
  },
  'credentials.delete': { input: forProfile, output: z.object({ deleted: z.boolean() }) },
  'credentials.test': { input: forProfile, output: connectionTestResult },
} satisfies DomainSchemas<'credentials'>;
