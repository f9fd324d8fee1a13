/** Messages from the export worker to the main thread. */
import type { ExportProgress, ExportResult } from '../../shared/exports';

export type WorkerMessage =
  | { type: 'progress'; progress: ExportProgress }
  | { type: 'result'; result: ExportResult }
  | { type: 'failed'; error: string };
