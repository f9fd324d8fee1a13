/**
 * Named loggers with one redaction step on every line, so a secret that slipped into a message or a field is
 * cut before it is written. Lines are JSON, one per line, so support can read them with any tool.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogSink = (line: string) => void;

/** Text that must never be written: the secrets in use and their Basic-auth forms. */
export interface Redactor {
  add(secret: string): void;
  apply(text: string): string;
}

/** Header- and field-shaped credentials are cut even when the secret itself is not known here. */
const CREDENTIAL_PATTERNS: [RegExp, string][] = [
  [/(authorization\\?["']?\s*[:=]\s*\\?["']?)(basic|bearer)\s+[A-Za-z0-9+/=._-]+/gi, '$1[redacted]'],
  // Also inside JSON that was itself put in a string (escaped quotes).
  [/(\\?"hash\\?"\s*:\s*\\?")[0-9a-f]{32,}/gi, '$1[redacted]'],
];

export function createRedactor(): Redactor {
  const secrets = new Set<string>();
  return {
    add(secret) {
      if (secret.length < 4) return;
      secrets.add(secret);
      secrets.add(Buffer.from(secret, 'utf8').toString('base64'));
    },
    apply(text) {
      let out = text;
      for (const s of secrets) out = out.split(s).join('[redacted]');
      for (const [pattern, replacement] of CREDENTIAL_PATTERNS) out = out.replace(pattern, replacement);
      return out;
    },
  };
}

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  child(name: string): Logger;
}

export function createLogger(
  name: string,
  sink: LogSink,
  redactor: Redactor,
  now: () => Date = () => new Date(),
): Logger {
  const write =
    (level: LogLevel) =>
    (message: string, fields: Record<string, unknown> = {}) => {
      const line = JSON.stringify(
        { time: now().toISOString(), level, logger: name, message, ...fields },
        errorsAsFields,
      );
      sink(redactor.apply(line));
    };
  return {
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    child: (childName) => createLogger(`${name}.${childName}`, sink, redactor, now),
  };
}

/** Errors are logged by name, code and message: a stack may hold request bodies in its frames' text. */
function errorsAsFields(_key: string, value: unknown): unknown {
  if (value instanceof Error) {
    return { name: value.name, message: value.message, ...('code' in value ? { code: value.code } : {}) };
  }
  return value;
}

/** Appends lines to a file, creating its folder; for the app's `logs/main.log`. */
export function fileSink(path: string): LogSink {
  mkdirSync(dirname(path), { recursive: true });
  return (line) => appendFileSync(path, line + '\n', { mode: 0o600 });
}
