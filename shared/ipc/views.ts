/** Schemas of the `views.*` channels: the active profile's saved views of one table (shared/saved-views.ts). */
import { z } from 'zod';
import { savedView, tableViews, viewName, viewTable } from '../saved-views';
import type { DomainSchemas } from './contract';

const table = z.object({ table: viewTable }).strict();

export const viewsChannels = {
  'views.list': { input: table, output: tableViews },
  /** Saves (or replaces, by name) a view; refused past the table's limit. */
  'views.save': { input: table.extend({ view: savedView }).strict(), output: tableViews },
  'views.remove': { input: table.extend({ name: viewName }).strict(), output: tableViews },
  /** The view the screen opens with; null for none. */
  'views.setDefault': { input: table.extend({ name: viewName.nullable() }).strict(), output: tableViews },
} satisfies DomainSchemas<'views'>;
