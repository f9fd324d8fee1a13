/**
 * `desk …`: a desk's set-up and people (an admin's), joining a profile to a desk (anyone's), its status and its
 * journal's check. `desk init` and the people commands reach the server with the connection flags and the
 * password on standard input, so the server's administrator can run them before anyone has joined; without the
 * flags they use the profile's own desk. Passwords are read from standard input, never the command line.
 */
import pg from 'pg';
import {
  DESK_ROLES,
  ROLE_ABILITIES,
  deskConnection,
  journalWaitingSentence,
  type DeskConnection,
  type DeskRole,
} from '../../../shared/desk';
import { describeIssues } from '../../../shared/api/operations';
import { clientConfig } from '../../desk/connection';
import { openDesk, type Desk } from '../../desk/desk';
import { DeskError, deskErrorOf } from '../../desk/errors';
import type { DeskVerifyResult } from '../../desk/journal';
import { initDesk } from '../../desk/migrate';
import type { Command, Values } from '../command';
import type { Context } from '../context';
import { InputError, result, table, type Io } from '../io';
import { readSecrets } from '../read-secret';

const connectionOptions = {
  host: { type: 'string' },
  port: { type: 'string' },
  database: { type: 'string' },
  user: { type: 'string' },
  'ca-file': { type: 'string' },
  'no-tls': { type: 'boolean' },
} as const;
const CONNECTION_FLAGS = '--host H [--port P] --database D --user LOGIN (--ca-file F | --no-tls)';

function connectionFrom(values: Values): DeskConnection {
  const port = values.port === undefined ? undefined : Number(values.port);
  const parsed = deskConnection.safeParse({
    host: values.host,
    ...(port === undefined ? {} : { port }),
    database: values.database,
    user: values.user,
    tls: values['no-tls'] ? 'none' : 'verify-full',
    ...(values['ca-file'] === undefined ? {} : { caFile: values['ca-file'] }),
  });
  if (!parsed.success) {
    throw new InputError(
      describeIssues(parsed.error)
        .replace(/^caFile:/, '--ca-file:')
        .replace(/^tls:/, '--no-tls:'),
    );
  }
  return parsed.data;
}

/** The desk named by the flags (password first on standard input), else the profile's own. */
async function deskOf(ctx: Context, values: Values, io: Io, morePasswords: string[] = []) {
  if (values.host === undefined) {
    const desk = await ctx.core.desks.for(ctx.profile.id);
    if (!desk) throw new DeskError('DESK_REFUSED', `Profile "${ctx.profile.name}" is on no desk: ${CONNECTION_FLAGS}.`);
    const extra = morePasswords.length ? await readSecrets(morePasswords, io.stdin) : [];
    return { desk, extra, own: false };
  }
  const connection = connectionFrom(values);
  const [password, ...extra] = await readSecrets([`Password of ${connection.user}: `, ...morePasswords], io.stdin);
  const desk = await openDesk({ connection, password: password!, console: ctx.core.desks.consoleName });
  return { desk, extra, own: true };
}

async function withDesk<T>(
  ctx: Context,
  values: Values,
  io: Io,
  work: (desk: Desk, extra: string[]) => Promise<T>,
  morePasswords: string[] = [],
): Promise<T> {
  const { desk, extra, own } = await deskOf(ctx, values, io, morePasswords);
  try {
    return await work(desk, extra);
  } finally {
    if (own) await desk.close();
  }
}

const init: Command = {
  words: ['desk', 'init'],
  usage: `desk init ${CONNECTION_FLAGS}   (the server's administrator; password on standard input; run again = no change)`,
  options: connectionOptions,
  async run({ values, io }) {
    const connection = connectionFrom(values);
    const [password] = await readSecrets([`Password of ${connection.user}: `], io.stdin);
    const client = new pg.Client(clientConfig({ connection, password: password!, console: 'desk init' }));
    // A server lost mid-migration fails the statement in flight, handled below; pg raises the same loss as an 'error'
    // event too, which unheard would end the command with a stack trace instead of the desk's sentence.
    client.on('error', () => undefined);
    try {
      await client.connect();
      const done = await initDesk(client);
      result(io, done, () =>
        done.applied.length === 0
          ? `The desk on ${connection.host}/${connection.database} is up to date (schema ${done.version}).`
          : `The desk on ${connection.host}/${connection.database} is at schema ${done.version}: applied ${done.applied
              .map((m) => `${m.version} (${m.name})`)
              .join(', ')}.`,
      );
    } catch (e) {
      throw deskErrorOf(e);
    } finally {
      await client.end().catch(() => undefined);
    }
  },
};

function roleOf(values: Values): DeskRole {
  const role = values.role;
  if (typeof role !== 'string' || !(DESK_ROLES as readonly string[]).includes(role)) {
    throw new InputError(`--role must be one of ${DESK_ROLES.join(', ')}`);
  }
  return role as DeskRole;
}

const addPerson: Command = {
  words: ['desk', 'add-person'],
  usage: `desk add-person LOGIN --role viewer|operator|approver|admin [${CONNECTION_FLAGS}]   (admin; their first password on standard input)`,
  options: { ...connectionOptions, role: { type: 'string' } },
  positionals: { min: 1, max: 1, names: 'a LOGIN' },
  async run({ ctx, values, positionals, io }) {
    const role = roleOf(values);
    const login = positionals[0]!;
    const seq = await withDesk(ctx, values, io, (desk, [password]) => desk.people.add(login, role, password!), [
      `First password for ${login}: `,
    ]);
    result(io, { login, role, journalSeq: seq }, () => `${login} is on the desk as ${role}: ${ROLE_ABILITIES[role]}.`);
  },
};

const removePerson: Command = {
  words: ['desk', 'remove-person'],
  usage: `desk remove-person LOGIN [${CONNECTION_FLAGS}]   (admin)`,
  options: connectionOptions,
  positionals: { min: 1, max: 1, names: 'a LOGIN' },
  async run({ ctx, values, positionals, io }) {
    const login = positionals[0]!;
    const seq = await withDesk(ctx, values, io, (desk) => desk.people.remove(login));
    result(io, { login, journalSeq: seq }, () => `${login} can no longer sign in to the desk.`);
  },
};

const join: Command = {
  words: ['desk', 'join'],
  usage: `desk join ${CONNECTION_FLAGS}   (your desk password on standard input, kept in the OS keychain)`,
  options: connectionOptions,
  async run({ ctx, values, io }) {
    const connection = connectionFrom(values);
    const [password] = await readSecrets([`Your desk password (${connection.user}): `], io.stdin);
    const status = await ctx.core.desks.join(ctx.profile.id, connection, password!).catch((e: unknown) => {
      throw deskErrorOf(e);
    });
    result(io, { profile: ctx.profile.name, ...status }, () =>
      [
        `Profile "${ctx.profile.name}" is on the desk ${connection.host}/${connection.database} as ${status.person}` +
          (status.role ? ` (${status.role}: ${ROLE_ABILITIES[status.role]}).` : ', who is in no desk role yet.'),
        status.readOnlyReason ?? '',
      ]
        .filter(Boolean)
        .join('\n'),
    );
  },
};

const leave: Command = {
  words: ['desk', 'leave'],
  usage: 'desk leave   (the profile works alone again; its desk password is removed from the keychain)',
  async run({ ctx, io }) {
    await ctx.core.desks.leave(ctx.profile.id);
    result(io, { profile: ctx.profile.name, mode: 'local' }, () => `Profile "${ctx.profile.name}" works alone again.`);
  },
};

const status: Command = {
  words: ['desk', 'status'],
  usage: "desk status   (local or desk, as whom, reachable, and the desk's people)",
  async run({ ctx, io }) {
    const state = await ctx.core.desks.state(ctx.profile.id, ctx.core.osUser);
    const people =
      state.mode === 'desk' && state.reachable ? await (await ctx.core.desks.for(ctx.profile.id))!.people.list() : [];
    result(io, { ...state, people }, () => {
      if (state.mode === 'local') return `Local mode: ${state.person} works alone on this console's cache.`;
      const head = `Desk ${state.host}/${state.database} as ${state.person}${state.role ? ` (${state.role})` : ''}: ${
        state.reachable
          ? state.writable
            ? 'reachable.'
            : `read-only. ${state.reason}`
          : `not reachable. ${state.reason}`
      }${state.journalWaiting === 0 ? '' : ` ${journalWaitingSentence(state.journalWaiting)}`}`;
      return people.length
        ? `${head}\n${table(
            ['LOGIN', 'ROLE', 'ADDED', 'BY'],
            people.map((p) => [p.login, p.role, p.addedAt.slice(0, 10), p.addedBy]),
          )}`
        : head;
    });
  },
};

const verify: Command = {
  words: ['desk', 'verify'],
  usage: "desk verify   (the desk journal's whole chain, against the head this console saw last)",
  async run({ ctx, io }) {
    const checked = await ctx.core.desks.verify(ctx.profile.id);
    if (!checked) throw new DeskError('DESK_REFUSED', `Profile "${ctx.profile.name}" is on no desk.`);
    result(io, checked, () => describeDeskChain(checked));
    return checked.ok ? undefined : 1;
  },
};

/** A desk journal's check in words, for `desk verify` and `journal verify`. */
export function describeDeskChain(checked: DeskVerifyResult): string {
  return checked.ok
    ? `The desk journal holds ${checked.entries} entries and its chain is whole.`
    : `The desk journal is not whole:\n${checked.problems.map((p) => `  - ${p}`).join('\n')}`;
}

export const deskCommands: Command[] = [init, addPerson, removePerson, join, leave, status, verify];
