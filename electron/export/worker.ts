/**
 * The export worker thread: one export per worker, so writing a million rows never blocks the main process's
 * event loop (IPC, the UI's reads, a running sync). It reports progress and the result as messages and stops
 * at the next page when told to cancel.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runExport, type ExportJob } from './run-export';
import type { WorkerMessage } from './worker-protocol';

const port = parentPort!;
const controller = new AbortController();
port.on('message', (message: { type: 'cancel' }) => {
  if (message.type === 'cancel') controller.abort();
});

const post = (message: WorkerMessage) => port.postMessage(message);

try {
  const result = await runExport(workerData as ExportJob, {
    signal: controller.signal,
    onProgress: (progress) => post({ type: 'progress', progress }),
  });
  post({ type: 'result', result });
} catch (e) {
  post({ type: 'failed', error: e instanceof Error ? e.message : String(e) });
} finally {
  port.close();
}
