/**
 * The errors Node raises as uncaught while listening: for tests that an error event is heard where it happens (an
 * unheard one would end the main process), read as values rather than left to Vitest's report of the whole run.
 */
export function listenUncaught(): { errors: unknown[]; stop(): void } {
  const errors: unknown[] = [];
  const hear = (e: unknown) => errors.push(e);
  process.on('uncaughtException', hear);
  return { errors, stop: () => process.off('uncaughtException', hear) };
}
