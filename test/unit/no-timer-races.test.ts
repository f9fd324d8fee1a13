/**
 * No test carries a wall-clock limit (README, "Tests"): a test that races what it waits for against a fixed timer
 * passes on an idle machine and fails on a busy one (issue 32: 100 stalled sockets raced against 5 s failed one CI
 * run in 2,120). This reads every script under `test/` and finds the two shapes such a race takes:
 *  - `Promise.race([...])` with a timer among what it races (`setTimeout(…, N)`, or `setTimeout` of
 *    `node:timers/promises` under any name);
 *  - a timer that fails a wait when it fires (its callback calls `reject` or throws).
 * A test should wait on the event itself, with the suite's own timeout as the only bound. A timer of 0 ms (or none)
 * only yields a turn and races nothing. What is left is listed below, each with why it cannot fail on a slow machine.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
const TEST_DIR = join(ROOT, 'test');
const SCRIPT = /\.(?:[cm]?[jt]s|tsx)$/;

/** Timer races that stay, by file, with how many and why each cannot fail under load. */
const ALLOWED: Record<string, { count: number; why: string }> = {
  'test/unit/xlsx-writer.test.ts': {
    count: 1,
    why:
      'the 100 ms probe only picks which write to abort: whatever it decides, that write is still pending when ' +
      'abort() runs in the same turn, and abort rejects every pending write, which is what the test asserts',
  },
  'test/unit/zip-writer.test.ts': {
    count: 1,
    why: 'untilStuck: the same probe as xlsx-writer, its promise aborted in the same turn as it is judged stuck',
  },
  'test/bench/ui-probe.ts': {
    count: 1,
    why: 'a benchmark (npm run bench), not a test: it measures wall time by design and is not run by npm test',
  },
};

export interface TimerRace {
  line: number;
  text: string;
}

/** The races against a timer in one script's source (see the file's comment for what counts). */
export function timerRaces(source: string, fileName = 'probe.ts'): TimerRace[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  // The delay's position by timer name: the global `setTimeout(callback, ms)`, and
  // `import { setTimeout as sleep } from 'node:timers/promises'`, whose `sleep(ms)` is a timer too.
  const delayAt = new Map([['setTimeout', 1]]);
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    if (!/^(?:node:)?timers\/promises$/.test(statement.moduleSpecifier.text)) continue;
    const bindings = statement.importClause?.namedBindings;
    if (!bindings || !ts.isNamedImports(bindings)) continue;
    for (const element of bindings.elements) {
      if ((element.propertyName ?? element.name).text === 'setTimeout') delayAt.set(element.name.text, 0);
    }
  }
  const calleeName = (call: ts.CallExpression) =>
    ts.isIdentifier(call.expression)
      ? call.expression.text
      : ts.isPropertyAccessExpression(call.expression)
        ? call.expression.name.text
        : undefined;
  /** A timer call with a delay that is not a literal 0: something that fires after a fixed time. */
  const isDelayedTimer = (node: ts.Node): node is ts.CallExpression => {
    const at = ts.isCallExpression(node) ? delayAt.get(calleeName(node) ?? '') : undefined;
    const delay = at === undefined ? undefined : (node as ts.CallExpression).arguments[at];
    if (delay === undefined) return false;
    return !(ts.isNumericLiteral(delay) && Number(delay.text) === 0);
  };
  const contains = (node: ts.Node, test: (n: ts.Node) => boolean): boolean =>
    test(node) || ts.forEachChild(node, (child) => (contains(child, test) ? true : undefined)) === true;
  const failsAWait = (callback: ts.Node) =>
    contains(callback, (n) => ts.isThrowStatement(n) || (ts.isCallExpression(n) && calleeName(n) === 'reject'));

  const found: TimerRace[] = [];
  const report = (node: ts.Node) =>
    found.push({
      line: file.getLineAndCharacterOfPosition(node.getStart()).line + 1,
      text: node.getText().split('\n')[0]!.trim(),
    });
  const visit = (node: ts.Node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.getText() === 'Promise.race' &&
      node.arguments.some((a) => contains(a, isDelayedTimer))
    ) {
      report(node);
    } else if (isDelayedTimer(node)) {
      const callback = node.arguments.find((a) => ts.isArrowFunction(a) || ts.isFunctionExpression(a));
      if (callback && failsAWait(callback)) report(node);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function scripts(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return scripts(path);
    return SCRIPT.test(entry.name) ? [path] : [];
  });
}

describe('no test races a fixed timer', () => {
  it('finds the shapes a timer race takes, and leaves waits and yields alone', () => {
    // The stopwatch of issue 32, as sandbox-sockets.test.ts had it.
    expect(
      timerRaces(`const outcome = await Promise.race([
        Promise.all(sockets.map((s) => s.closed)).then(() => 'all closed'),
        new Promise((resolve) => setTimeout(() => resolve('still open'), 5_000)),
      ]);`),
    ).toHaveLength(1);
    expect(
      timerRaces(`new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('not within 5 s')), timeoutMs);
        waiters.push(() => { clearTimeout(timer); resolve(); });
      });`),
    ).toHaveLength(1);
    expect(
      timerRaces(`import { setTimeout as sleep } from 'node:timers/promises';
        await Promise.race([done, sleep(2_000).then(() => { throw new Error('late'); })]);`),
    ).toHaveLength(1);
    expect(timerRaces(`setTimeout(() => { throw new Error('late'); }, LIMIT_MS);`)).toHaveLength(1);
    // Waiting on the events, racing two events, or yielding a turn is no race against the clock.
    expect(
      timerRaces(`await Promise.all(sockets.map((s) => s.closed));
        const first = await Promise.race([killed.then(() => 'killed'), exited]);
        await new Promise((resolve) => setTimeout(resolve, 0));
        await new Promise((resolve) => setTimeout(resolve));
        setTimeout(() => controller.abort(), 50);`),
    ).toEqual([]);
  });

  it('finds none under test/ beyond the justified list', () => {
    const byFile: Record<string, TimerRace[]> = {};
    for (const path of scripts(TEST_DIR)) {
      const races = timerRaces(readFileSync(path, 'utf8'), path);
      if (races.length > 0) byFile[relative(ROOT, path)] = races;
    }
    const unexpected = Object.entries(byFile).filter(([file, races]) => races.length !== ALLOWED[file]?.count);
    expect(unexpected, 'wait on the event itself; the suite timeout is the only bound').toEqual([]);
    // An entry nothing needs any more goes, so the list says what is really there.
    expect(Object.keys(ALLOWED).filter((file) => !(file in byFile))).toEqual([]);
  });
});
