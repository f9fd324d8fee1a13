/**
 * The names of every IPC channel, and nothing else.
 *
 * The sandboxed preload imports this list to build `window.api`; it must stay free of zod and of any other runtime
 * import so the preload bundle holds only `electron` and this array. The schemas live in `contract.ts`, which checks at
 * compile time that it covers exactly these names.
 *
 * A channel is named `domain.method` (one dot). The renderer calls it as `window.api.<domain>.<method>(input)`.
 */
export const IPC_CHANNELS = ['app.info'] as const satisfies readonly `${string}.${string}`[];

export type IpcChannel = (typeof IPC_CHANNELS)[number];
