/**
 * How the CLI talks back: results to stdout (a table for people, one JSON document with --json), progress
 * and errors to stderr. A redrawn progress line on a terminal, plain lines otherwise (logs, CI).
 */
export class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * A command that did its work and printed its result, but not all of it succeeded: ends with `exitCode` (1 refused
 * by the service, 2 bad input, 3 outcome unknown) and `message` on stderr.
 */
export class PartialOutcome extends Error {
  override name = 'PartialOutcome';
  constructor(
    message: string,
    readonly exitCode: 1 | 2 | 3,
  ) {
    super(message);
  }
}

export interface Io {
  json: boolean;
  out(text: string): void;
  err(text: string): void;
  isTerminal: boolean;
}

export function processIo(json: boolean): Io {
  return {
    json,
    out: (text) => process.stdout.write(text + '\n'),
    err: (text) => process.stderr.write(text + '\n'),
    isTerminal: process.stderr.isTTY === true,
  };
}

/** Writes a value as the command's result: JSON under --json, else the human text. */
export function result(io: Io, value: unknown, human: () => string): void {
  io.out(io.json ? JSON.stringify(value, null, 2) : human());
}

/** A fixed-width table; numbers and money are right-aligned by the caller passing `align`. */
export function table(headers: string[], rows: string[][], align: ('left' | 'right')[] = []): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (align[i] === 'right' ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** One progress line: redrawn in place on a terminal, appended otherwise. */
export function progressLine(io: Io): { update(text: string): void; done(): void } {
  let drawn = false;
  return {
    update(text) {
      if (io.isTerminal) {
        process.stderr.write(`\r\x1b[2K${text}`);
        drawn = true;
      } else io.err(text);
    },
    done() {
      if (drawn) process.stderr.write('\n');
    },
  };
}
