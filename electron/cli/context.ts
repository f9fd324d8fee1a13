/**
 * What every command works on: the same core the app builds (profiles, credentials, logger), for the profile
 * chosen with --profile (by name or id) or the active one, in the data folder given or the app's own. The
 * built-in Sandbox profile talks to a sandbox started in this process, so it needs no secret.
 */
import { join } from 'node:path';
import pkg from '../../package.json' with { type: 'json' };
import type { Profile } from '../../shared/profiles';
import { createCore, type Core } from '../core';
import { createLogger, createRedactor, openLogFile, type LogFile } from '../log';
import { createProfileStore, type ProfileStore } from '../profiles/profile-store';
import { SANDBOX_DEFAULTS, startSandbox } from '../sandbox/server';
import { withEnvironmentSecret } from '../vault/env-secret';
import { createKeytarStore } from '../vault/keytar-store';
import { PRODUCT_NAME, defaultDataDir } from './data-dir';
import { UsageError } from './io';
import { prepareDataDir } from './local-files';

export interface Globals {
  profile?: string;
  dataDir?: string;
  secretEnv?: string;
}

export interface Context {
  core: Core;
  profile: Profile;
  dataDir: string;
  /** The secret given with --secret-env, if any; it never leaves this process. */
  secretFromEnv: string | null;
  now: () => number;
  /** The package's version, printed on every export's provenance. */
  appVersion: string;
  close(): Promise<void>;
}

export async function openContext(
  globals: Globals,
  env: NodeJS.ProcessEnv = process.env,
  now: () => number = Date.now,
): Promise<Context> {
  const dataDir = globals.dataDir ?? defaultDataDir(env);
  prepareDataDir(dataDir);
  const sandbox = await startSandbox({ hooks: false, now });
  let logFile: LogFile | null = null;
  try {
    const embedded = { url: sandbox.url, key: SANDBOX_DEFAULTS.key, secret: SANDBOX_DEFAULTS.secret };
    const profile = pickProfile(
      createProfileStore({ dataDir, sandbox: embedded, now: () => new Date(now()) }),
      globals.profile,
    );

    const redactor = createRedactor();
    // Another service name keeps a second installation (or a test run) apart from the app's own secrets.
    let vault = createKeytarStore(env['PAYOUT_CONSOLE_KEYCHAIN_SERVICE'] || PRODUCT_NAME);
    let secretFromEnv: string | null = null;
    if (globals.secretEnv !== undefined) {
      secretFromEnv = env[globals.secretEnv] ?? '';
      if (!secretFromEnv)
        throw new UsageError(`--secret-env ${globals.secretEnv}: that environment variable is not set`);
      redactor.add(secretFromEnv);
      vault = withEnvironmentSecret(vault, profile.id, secretFromEnv);
    }
    // Synchronous: the CLI exits right after its command, and an asynchronous writer would lose the last lines.
    logFile = await openLogFile(join(dataDir, 'logs', 'cli.log'), { sync: true });
    const core = createCore({
      appVersion: pkg.version,
      dataDir,
      vault,
      sandbox: embedded,
      log: createLogger('cli', logFile.stream, redactor),
      redactor,
      now,
    });
    return {
      core,
      profile,
      dataDir,
      secretFromEnv,
      now,
      appVersion: pkg.version,
      async close() {
        // The command's entries go to the desk's journal before the cache closes; an unreachable desk keeps them.
        await core.journalMirror.settled();
        await core.close();
        await sandbox.close();
        await logFile?.close();
      },
    };
  } catch (e) {
    await sandbox.close();
    await logFile?.close();
    throw e;
  }
}

function pickProfile(store: ProfileStore, wanted: string | undefined): Profile {
  if (wanted === undefined) return store.active();
  return findProfile(store.list(), wanted);
}

/** A profile by id, or by name in any case. */
export function findProfile(profiles: Profile[], wanted: string): Profile {
  const found =
    profiles.find((p) => p.id === wanted) ?? profiles.find((p) => p.name.toLowerCase() === wanted.toLowerCase());
  if (!found) throw new UsageError(`no profile "${wanted}" (have: ${profiles.map((p) => p.name).join(', ')})`);
  return found;
}
