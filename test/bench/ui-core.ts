/**
 * The ui bench's console in a process of its own, as the app's main process is one: the sandbox, the core on a copy
 * of a bench data set and the harness that serves the renderer and its IPC. The bench (ui.ts) drives the browser from
 * its own process, so the blocks of this process's event loop it asks for are the core's and the IPC bridge's only,
 * not Playwright's client's or the bench's own SQL's.
 *
 * Started by ui.ts with `fork`, the data set's shape and rows as arguments. Messages, each answered once done:
 * `stream` (the page's event stream is open), `start` (time the loop's blocks from now), `stop` (the longest since
 * `start`, in ms), `close`.
 */
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
  | { type: 'stop'; blockMs: number }
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

process.on('message', (request: UiCoreRequest) => {
  switch (request.type) {
    case 'stream':
      void app.harness.eventStreamOpen().then(() => send({ type: 'stream' }));
      return;
    case 'start':
      loop.reset();
      loop.enable();
      send({ type: 'start' });
      return;
    case 'stop':
      loop.disable();
      send({ type: 'stop', blockMs: loop.max / 1e6 });
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
