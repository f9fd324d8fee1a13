/**
 * Profile and credential events as journal entries, in the journal of the profile they concern. A secret's entry
 * says what happened to it (set, replaced, deleted, tested and how that went), never what it is.
 */
import type { CredentialEvent } from '../profiles/credentials';
import type { ProfileEvent } from '../profiles/profile-store';
import type { JournalInput } from './journal';

export function profileEntry(e: ProfileEvent): JournalInput {
  const p = e.profile;
  const described = { profileId: p.id, name: p.name, environment: p.environment, baseUrl: p.baseUrl };
  switch (e.event) {
    case 'profile.created':
      return {
        kind: 'profile',
        event: e.event,
        outcome: 'done',
        summary: `Created the profile ${p.name}.`,
        data: described,
      };
    case 'profile.updated':
      return {
        kind: 'profile',
        event: e.event,
        outcome: 'done',
        summary: `Edited the profile ${p.name}: ${e.fields.length ? e.fields.join(', ') : 'nothing changed'}.`,
        data: { ...described, fields: e.fields },
      };
    case 'profile.activated':
      return {
        kind: 'profile',
        event: e.event,
        outcome: 'done',
        summary: `Made ${p.name} the active profile.`,
        data: described,
      };
    case 'profile.removed':
      return {
        kind: 'profile',
        event: e.event,
        outcome: 'done',
        summary: `Removed the profile ${p.name}.`,
        data: described,
      };
  }
}

export function credentialEntry(e: CredentialEvent): JournalInput {
  switch (e.event) {
    case 'secret.set':
      return { kind: 'credential', event: e.event, outcome: 'done', summary: 'Stored a secret in the keychain.' };
    case 'secret.replaced':
      return { kind: 'credential', event: e.event, outcome: 'done', summary: 'Replaced the secret in the keychain.' };
    case 'secret.deleted':
      return { kind: 'credential', event: e.event, outcome: 'done', summary: 'Deleted the secret from the keychain.' };
    case 'secret.tested':
      return e.result.ok
        ? {
            kind: 'credential',
            event: e.event,
            outcome: 'succeeded',
            summary: `Tested the connection: it works (${e.result.gateways.length} gateways).`,
            data: { ok: true, gateways: e.result.gateways, failingGateways: e.result.failingGateways },
          }
        : {
            kind: 'credential',
            event: e.event,
            outcome: 'failed',
            summary: `Tested the connection: ${e.result.message}`,
            data: { ok: false, reason: e.result.reason, message: e.result.message },
          };
  }
}
