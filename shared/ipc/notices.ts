/**
 * Schemas of the `notices.*` channels: files main moved aside because they could not be used (an unreadable settings
 * file, a damaged or tampered cache). Each is shown until dismissed, with where the file went and a button that shows
 * it in the file manager; the renderer names a notice by id, never a path.
 */
import { z } from 'zod';
import type { DomainSchemas } from './contract';

export const movedAsideNotice = z.object({
  id: z.string().min(1),
  /** Which file it was. */
  kind: z.enum(['settings', 'cache']),
  /** Where it is now. */
  movedTo: z.string().min(1),
  /** One sentence for the user: what happened, why and what to do. */
  message: z.string().min(1),
  /** ISO UTC time it was moved. */
  at: z.string(),
});
export type MovedAsideNotice = z.output<typeof movedAsideNotice>;

const noticeId = z.object({ id: z.string().min(1).max(64) }).strict();

export const noticesChannels = {
  'notices.list': { input: z.undefined(), output: z.array(movedAsideNotice) },
  /** Shows the moved file in the file manager; false when it is no longer there. */
  'notices.reveal': { input: noticeId, output: z.object({ revealed: z.boolean() }) },
  'notices.dismiss': { input: noticeId, output: z.object({ dismissed: z.boolean() }) },
} satisfies DomainSchemas<'notices'>;
