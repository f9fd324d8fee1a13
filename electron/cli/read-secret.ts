/**
 * Reads a secret from standard input, never from the command line (where shell history and `ps` would keep
 * it). On a terminal it prompts without echo; piped, it takes the input up to the first line break.
 */
import { UsageError } from './io';

export async function readSecret(prompt: string, stdin: NodeJS.ReadStream = process.stdin): Promise<string> {
  const secret = stdin.isTTY ? await promptHidden(prompt, stdin) : await firstLine(stdin);
  if (!secret) throw new UsageError('no secret given on standard input');
  return secret;
}

/**
 * Several secrets, one a line (a desk administrator's password, then the new person's): prompted one after another
 * on a terminal, the first lines of piped input otherwise.
 */
export async function readSecrets(prompts: string[], stdin: NodeJS.ReadStream = process.stdin): Promise<string[]> {
  const secrets: string[] = [];
  if (stdin.isTTY) for (const prompt of prompts) secrets.push(await promptHidden(prompt, stdin));
  else secrets.push(...(await lines(stdin)).slice(0, prompts.length));
  if (secrets.length < prompts.length || secrets.some((s) => !s)) {
    throw new UsageError(
      `give ${prompts.length === 1 ? 'the password' : `${prompts.length} passwords, one a line,`} on standard input`,
    );
  }
  return secrets;
}

async function lines(stdin: NodeJS.ReadStream): Promise<string[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').split(/\r?\n/);
}

async function firstLine(stdin: NodeJS.ReadStream): Promise<string> {
  return (await lines(stdin))[0] ?? '';
}

function promptHidden(prompt: string, stdin: NodeJS.ReadStream): Promise<string> {
  process.stderr.write(prompt);
  stdin.setRawMode(true);
  stdin.resume();
  let typed = '';
  return new Promise((resolve, reject) => {
    const finish = (error?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (data: Buffer) => {
      for (const ch of data.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return finish();
        if (ch === '\u0003') return finish(new UsageError('cancelled'));
        if (ch === '\u007f' || ch === '\b') typed = typed.slice(0, -1);
        else typed += ch;
      }
    };
    stdin.on('data', onData);
  });
}
