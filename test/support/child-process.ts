/** Reading a child process's output line by line. */
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/** The first line the child writes to stdout (piped); rejects if it exits before writing one. */
export async function firstLine(child: ChildProcess): Promise<string> {
  const lines = createInterface({ input: child.stdout! });
  const line = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`exited with ${code} before writing a line`)));
  });
  lines.close();
  return line;
}
