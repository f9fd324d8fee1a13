/**
 * What the profile form warns about an address while it is typed: a host with non-ASCII letters (stored and shown in
 * punycode, since `https://аpple.com` with a Cyrillic "а" reads as a familiar name), and a change of service that
 * will remove the stored secret (main deletes it when the scheme, host or port changes; see credentials.ts).
 */
import { hasPunycodeHost, originOf } from '../../../shared/profiles';

function parsed(text: string): URL | null {
  return URL.canParse(text.trim()) ? new URL(text.trim()) : null;
}

export function addressWarning(text: string, saved: string | undefined): string | undefined {
  const url = parsed(text);
  if (!url) return undefined;
  const notes: string[] = [];
  if (hasPunycodeHost(url.href)) {
    notes.push(
      `The host has non-ASCII letters and is saved as ${url.hostname}: check that it is not a look-alike of the name you expect.`,
    );
  }
  if (saved !== undefined && originOf(url.href) !== originOf(saved)) {
    notes.push(`Saving a new service removes the stored secret, which was entered for ${originOf(saved)}.`);
  }
  return notes.length > 0 ? notes.join(' ') : undefined;
}
