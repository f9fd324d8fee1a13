/** Schemas of the `desk.*` channels: whether the active profile works alone or on a desk, and as whom. */
import { z } from 'zod';
import { deskState } from '../desk';
import type { DomainSchemas } from './contract';

export const deskChannels = {
  'desk.status': { input: z.object({}).strict(), output: deskState },
} satisfies DomainSchemas<'desk'>;
