/**
 * The ui bench's console in a process of its own, as the app's main process is one: the sandbox, the core on a copy
 * of a bench data set and the harness that serves the renderer and its IPC. The bench (ui.ts) drives the browser from
 * its own process, so the blocks of this process's event loop it asks for are the core's and the IPC bridge's only,
 * not Playwright's client's or the bench's own SQL's.
 *
 * Started by ui.ts with `fork`, the data set's shape and rows as arguments. Messages, each answered once done:
 * `stream` (the page's event stream is open), `start` (time the loop's blocks from now), `stop` (the longest since
 * `start`, in ms, and where the longest went), `close`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startAppCore } from '../e2e/support';
import { memoryStore } from '../support/memory-store';
import { datasetCopy, type DatasetShape } from './dataset';

export type UiCoreRequest = { type: 'stream' } | { type: 'start' } | { type: 'stop' } | { type: 'close' };
export type UiCoreAnswer =
  | { type: 'ready'; url: string; file: string }
  | { type: 'stream' }
  | { type: 'start' }
  | { type: 'stop'; blockMs: number; longest: BlockSplit | null }
  | { type: 'close' };

const send = (answer: UiCoreAnswer) => process.send!(answer);

const [shape, rows] = [process.argv[2] as DatasetShape, Number(process.argv[3])];
let file = '';
const app = await startAppCore({
  vault: memoryStore(),
  prepare({ core, dataDir }) {
    file = join(dataDir, 'cache', `${core.profiles.active().id}.sqlite`);
    datasetCopy(rows, file, shape);
  },
});
const loop = monitorEventLoopDelay({ resolution: 1 });
const split = blockSplitter();

process.on('message', (request: UiCoreRequest) => {
  switch (request.type) {
    case 'stream':
      void app.harness.eventStreamOpen().then(() => send({ type: 'stream' }));
      return;
    case 'start':
      loop.reset();
      loop.enable();
      split.start();
      send({ type: 'start' });
      return;
    case 'stop':
      loop.disable();
      send({ type: 'stop', blockMs: loop.max / 1e6, longest: split.stop() });
      return;
    case 'close':
      void app.close().then(() => {
        send({ type: 'close' });
        process.disconnect();
      });
  }
});
// A bench that ends without asking (killed, crashed) leaves no console serving behind: its channel's end closes it.
process.once('disconnect', () => void app.close().finally(() => process.exit()));
send({ type: 'ready', url: app.harness.url, file });

/** The longest gap between two turns of a 1 ms timer, and of it, main's time on a core and in the run queue. */
export interface BlockSplit {
  gapMs: number;
  onCpuMs: number;
  waitingMs: number;
}

/**
 * Where main's longest block went, from the kernel's count of the thread's time on a core and waiting for one
 * (`/proc/<pid>/schedstat`, Linux; elsewhere null). On two cores shared with Chromium and the reader worker, the
 * longest blocks of 20–34 ms were main's for 2–3 ms and the run queue's for the rest (1 Dec 2026): the machine's
 * cores, not the core's work.
 */
function blockSplitter() {
  const file = `/proc/${process.pid}/schedstat`;
  const read = (): [number, number] | null => {
    try {
      const [run, wait] = readFileSync(file, 'utf8').split(' ').map(Number);
      return [run!, wait!];
    } catch {
      return null;
    }
  };
  let timer: NodeJS.Timeout | undefined;
  let longest: BlockSplit | null = null;
  return {
    start() {
      longest = null;
      let last = read();
      if (!last) return;
      let at = performance.now();
      timer = setInterval(() => {
        const now = read()!;
        const t = performance.now();
        if (!longest || t - at > longest.gapMs) {
          longest = { gapMs: t - at, onCpuMs: (now[0] - last![0]) / 1e6, waitingMs: (now[1] - last![1]) / 1e6 };
        }
        [last, at] = [now, t];
      }, 1);
    },
    stop(): BlockSplit | null {
      clearInterval(timer);
      return longest;
    },
  };
}
