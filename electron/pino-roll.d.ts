/** pino-roll ships no types; this is the part of its options the logger uses (see its README). */
declare module 'pino-roll' {
  import type SonicBoom from 'sonic-boom';

  interface PinoRollOptions {
    file: string;
    extension?: string;
    size?: string;
    limit?: { count: number };
    mode?: number;
    sync?: boolean;
    mkdir?: boolean;
  }

  /** sonic-boom keeps the path it writes in `file` (its types leave it out); pino-roll changes it on each roll. */
  export default function pinoRoll(options: PinoRollOptions): Promise<SonicBoom & { readonly file: string }>;
}
