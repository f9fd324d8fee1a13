/** `profiles list|add|remove|use|set-secret`. */
import { ENVIRONMENTS, HASH_SCHEMES, type Environment, type HashScheme, type Profile } from '../../../shared/profiles';
import type { Command } from '../command';
import { findProfile } from '../context';
import { UsageError, pagesAtOnce, result, table } from '../io';
import { readSecret } from '../read-secret';

const list: Command = {
  words: ['profiles', 'list'],
  usage: 'profiles list',
  async run({ ctx, io }) {
    const { profiles, credentials } = ctx.core;
    const activeId = profiles.active().id;
    const rows: (Profile & { active: boolean; hasSecret: boolean })[] = [];
    for (const p of profiles.list()) {
      const status = await credentials.status(p.id);
      rows.push({ ...p, active: p.id === activeId, hasSecret: status.hasSecret });
    }
    result(io, rows, () =>
      table(
        ['', 'NAME', 'ENV', 'BASE URL', 'KEY', 'HASH', 'PAGES AT ONCE', 'SECRET'],
        rows.map((p) => [
          p.active ? '*' : '',
          p.name,
          p.environment,
          p.baseUrl,
          p.key,
          p.hashScheme,
          String(p.syncConcurrency),
          p.hasSecret ? 'stored' : 'none',
        ]),
      ),
    );
  },
};

function oneOf<T extends string>(name: string, value: unknown, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!allowed.includes(value as T)) throw new UsageError(`--${name} must be one of ${allowed.join(', ')}`);
  return value as T;
}

const add: Command = {
  words: ['profiles', 'add'],
  usage:
    'profiles add --name N --base-url URL --ai-url URL --key K [--env sandbox|production|custom] [--hash-scheme sha512|hmac-sha256] [--sync-concurrency N]',
  options: {
    name: { type: 'string' },
    'base-url': { type: 'string' },
    'ai-url': { type: 'string' },
    key: { type: 'string' },
    env: { type: 'string' },
    'hash-scheme': { type: 'string' },
    'sync-concurrency': { type: 'string' },
  },
  async run({ ctx, values, io }) {
    for (const required of ['name', 'base-url', 'ai-url', 'key']) {
      if (typeof values[required] !== 'string') throw new UsageError(`profiles add needs --${required}`);
    }
    const created = ctx.core.profiles.create({
      name: values.name as string,
      baseUrl: values['base-url'] as string,
      aiUrl: values['ai-url'] as string,
      key: values.key as string,
      environment: oneOf<Environment>('env', values.env, ENVIRONMENTS, 'custom'),
      hashScheme: oneOf<HashScheme>('hash-scheme', values['hash-scheme'], HASH_SCHEMES, 'sha512'),
      syncConcurrency: pagesAtOnce('sync-concurrency', values['sync-concurrency']),
    });
    result(
      io,
      created,
      () =>
        `Added profile "${created.name}" (${created.environment}, ${created.baseUrl}). Set its secret with: profiles set-secret "${created.name}"`,
    );
  },
};

const remove: Command = {
  words: ['profiles', 'remove'],
  usage: 'profiles remove NAME',
  positionals: { min: 1, max: 1, names: 'NAME' },
  async run({ ctx, positionals, io }) {
    const p = findProfile(ctx.core.profiles.list(), positionals[0]!);
    await ctx.core.credentials.removeProfile(p.id);
    result(io, { removed: p.id }, () => `Removed profile "${p.name}" and its secret.`);
  },
};

const use: Command = {
  words: ['profiles', 'use'],
  usage: 'profiles use NAME',
  positionals: { min: 1, max: 1, names: 'NAME' },
  async run({ ctx, positionals, io }) {
    const p = ctx.core.profiles.activate(findProfile(ctx.core.profiles.list(), positionals[0]!).id);
    result(io, p, () => `"${p.name}" is now the active profile.`);
  },
};

const setSecret: Command = {
  words: ['profiles', 'set-secret'],
  usage: 'profiles set-secret [NAME]   (reads the secret from standard input, or from --secret-env VAR)',
  positionals: { min: 0, max: 1, names: 'NAME' },
  async run({ ctx, positionals, io }) {
    const p = positionals[0] ? findProfile(ctx.core.profiles.list(), positionals[0]) : ctx.profile;
    // With --secret-env the context's credentials already answer the env secret for this profile.
    const secret = ctx.secretFromEnv ?? (await readSecret(`Secret for "${p.name}": `));
    await ctx.core.credentials.set(p.id, secret);
    result(io, { profile: p.id, hasSecret: true }, () => `Stored the secret for "${p.name}" in the OS keychain.`);
  },
};

export const profileCommands = [list, add, remove, use, setSecret];
