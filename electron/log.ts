/**
 * Named loggers (pino) with one redaction step on every value before it is serialised, so a secret that slipped into
 * a message or a field is cut in the form it has in memory, whatever escaping serialisation would add. Lines are
 * JSON, one per line, so support can read them with any tool. In the app the file is written asynchronously by
 * pino-roll (sonic-boom), rotated by size and count: the main thread never waits on the disk per line.
 */
import { dirname, extname } from 'node:path';
import pino, { type DestinationStream } from 'pino';
import pinoRoll from 'pino-roll';
import { ensurePrivateDir } from './private-files';
import { secretForms } from './secret-forms';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogSink = (line: string) => void;

/** Text that must never be written or shown: the secrets in use in every encoded form (secret-forms.ts). */
export interface Redactor {
  add(secret: string): void;
  apply(text: string): string;
}

/** Header- and field-shaped credentials are cut even when the secret itself is not known here. */
const CREDENTIAL_PATTERNS: [RegExp, string][] = [
  [/(authorization\\?["']?\s*[:=]\s*\\?["']?)(basic|bearer)\s+[A-Za-z0-9+/=._-]+/gi, '$1[redacted]'],
  [/\b(basic|bearer)\s+[A-Za-z0-9+/=._-]{8,}/gi, '$1 [redacted]'],
  // Also inside JSON that was itself put in a string (escaped quotes).
  [/(\\?"hash\\?"\s*:\s*\\?")[0-9a-f]{32,}/gi, '$1[redacted]'],
];

/** Fields whose value is a credential whatever it looks like. */
const CREDENTIAL_FIELD = /^(authorization|hash|secret|password|cookie)$/i;

export function createRedactor(): Redactor {
  // Longest first, so a form that contains another (base64 of "key:secret" and of "secret") is cut whole.
  let forms: string[] = [];
  return {
    add(secret) {
      if (secret.length < 4) return;
      forms = [...new Set([...forms, ...secretForms(secret)])].sort((a, b) => b.length - a.length);
    },
    apply(text) {
      let out = text;
      for (const form of forms) out = out.split(form).join('[redacted]');
      for (const [pattern, replacement] of CREDENTIAL_PATTERNS) out = out.replace(pattern, replacement);
      return out;
    },
  };
}

const MAX_DEPTH = 8;

/**
 * A copy of `value` with every string redacted and every credential-named field cut. Errors become their name, code
 * and message (a stack may hold request bodies in its frames' text); cycles and deep nesting are cut off.
 */
export function redactValue(value: unknown, redactor: Redactor, depth = 0): unknown {
  if (typeof value === 'string') return redactor.apply(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[nested too deep]';
  if (value instanceof Error) {
    const code = 'code' in value ? { code: redactValue(value.code, redactor, depth + 1) } : {};
    return { name: value.name, message: redactor.apply(value.message), ...code };
  }
  if (Array.isArray(value)) return value.map((item) => redactValue(item, redactor, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = CREDENTIAL_FIELD.test(key) ? '[redacted]' : redactValue(item, redactor, depth + 1);
  }
  return out;
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
  sink: LogSink | DestinationStream,
  redactor: Redactor,
  now: () => Date = () => new Date(),
): Logger {
  const destination: DestinationStream =
    typeof sink === 'function' ? { write: (line: string) => sink(line.replace(/\n$/, '')) } : sink;
  const root = pino(
    {
      level: 'debug',
      base: null,
      messageKey: 'message',
      timestamp: () => `,"time":"${now().toISOString()}"`,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
  return wrap(root.child({ logger: name }), name, redactor);
}

function wrap(instance: pino.Logger, name: string, redactor: Redactor): Logger {
  const write =
    (level: LogLevel) =>
    (message: string, fields: Record<string, unknown> = {}) =>
      instance[level](redactValue(fields, redactor) as object, redactor.apply(message));
  return {
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    child: (childName) => wrap(instance.child({ logger: `${name}.${childName}` }), `${name}.${childName}`, redactor),
  };
}

export interface LogFileOptions {
  /** Start a new file past this size (default 5 MiB)... */
  maxBytes?: number;
  /** ...and keep this many files in all (default 5). */
  keep?: number;
  /**
   * Write each line before returning. Only for short processes that exit right after their work (the CLI) and tests
   * that read the file at once; the app writes asynchronously.
   */
  sync?: boolean;
}

export interface LogFile {
  /** A destination for createLogger; it drops what is written after close. */
  stream: DestinationStream;
  /** The file being written now (`main.3.log`). */
  current(): string;
  /** Writes what is buffered and closes the file. */
  close(): Promise<void>;
}

/**
 * `logs/main.log` becomes `logs/main.1.log`, `logs/main.2.log`, … as each reaches the size limit, the oldest removed
 * past the count. Files are created 0600 in a 0700 folder: a log is for the user and support, not other accounts.
 */
export async function openLogFile(path: string, options: LogFileOptions = {}): Promise<LogFile> {
  ensurePrivateDir(dirname(path));
  const extension = extname(path);
  const stream = await pinoRoll({
    file: path.slice(0, path.length - extension.length),
    extension,
    size: `${Math.ceil((options.maxBytes ?? 5 * 1024 * 1024) / 1024)}k`,
    limit: { count: (options.keep ?? 5) - 1 },
    mode: 0o600,
    sync: options.sync ?? false,
  });
  let closed = false;
  return {
    // A line logged after close (a background check finishing as the process ends) is dropped, never thrown.
    stream: { write: (line: string) => void (closed || stream.write(line)) },
    current: () => stream.file,
    close: () => {
      closed = true;
      return new Promise<void>((resolve) => {
        stream.once('close', () => resolve());
        stream.end();
      });
    },
  };
}
