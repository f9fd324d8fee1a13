/** Handlers of the `beneficiaries.*` channels, for the active profile. */
import { epochMsToIstDate } from '../../shared/time';
import { writeImportResults, writeImportTemplate } from '../export/beneficiary-import-sheets';
import { exportFileName, type ExportJobs } from '../export/jobs';
import { bytesOfContent, readSheet } from '../import/sheet-reader';
import type { Approvals } from '../approvals/approvals';
import type { ProfileStore } from '../profiles/profile-store';
import type { BeneficiaryService } from '../treasury/beneficiaries';
import type { BeneficiaryImportService } from '../treasury/beneficiary-import';
import { checkIfsc } from '../treasury/ifsc';
import { ImportRefusedError } from '../treasury/beneficiary-import';
import type { EventBus } from './events';
import type { IpcHandlers } from './router';

type Handled =
  | 'beneficiaries.list'
  | 'beneficiaries.create'
  | 'beneficiaries.fetch'
  | 'beneficiaries.matches'
  | 'beneficiaries.verifyVpa'
  | 'beneficiaries.ifsc'
  | 'beneficiaries.changes'
  | 'beneficiaries.importPreview'
  | 'beneficiaries.importRun'
  | 'beneficiaries.importCancel'
  | 'beneficiaries.importTemplate'
  | 'beneficiaries.importResults';

export function createBeneficiaryHandlers(
  service: BeneficiaryService,
  approvals: Approvals,
  profiles: ProfileStore,
  imports: {
    service: BeneficiaryImportService;
    events: EventBus;
    /** Asks where to write a file (the save dialog in the app) and writes it there. */
    saveFile: ExportJobs['saveFile'];
    now: () => Date;
  },
): Pick<IpcHandlers, Handled> {
  const active = () => profiles.active().id;
  /** The import running now: one at a time, so two windows cannot send the same rows side by side. */
  let running: AbortController | null = null;
  const sheetOf = (fileName: string, content: string) => readSheet(fileName, bytesOfContent(fileName, content));
  const day = () => epochMsToIstDate(imports.now().getTime());
  return {
    'beneficiaries.list': (query) => service.list(active(), query),
    'beneficiaries.create': ({ requestKey, beneficiary }) =>
      approvals.gate(active(), requestKey, { action: 'beneficiary.add', beneficiary }),
    'beneficiaries.fetch': ({ id }) => service.fetch(active(), id),
    'beneficiaries.matches': (match) => service.matches(active(), match),
    'beneficiaries.verifyVpa': ({ vpa }) => service.verifyVpa(active(), vpa),
    'beneficiaries.ifsc': ({ ifsc }) => checkIfsc(ifsc),
    'beneficiaries.changes': ({ id }) => service.changes(active(), id),
    'beneficiaries.importPreview': async ({ fileName, content, mapping }) =>
      imports.service.preview(active(), await sheetOf(fileName, content), mapping),
    async 'beneficiaries.importRun'({ fileName, content, mapping }) {
      if (running) throw new ImportRefusedError('An import is already running; wait for it or cancel it.');
      const profileId = active();
      const controller = new AbortController();
      running = controller;
      try {
        const sheet = await sheetOf(fileName, content);
        return await imports.service.run(profileId, sheet, mapping, {
          signal: controller.signal,
          onProgress: ({ done, total, last }) =>
            imports.events.emit('importProgress', { profileId, done, total, row: last.row, outcome: last.outcome }),
        });
      } finally {
        running = null;
      }
    },
    'beneficiaries.importCancel': () => {
      running?.abort();
      return { cancelled: running !== null };
    },
    'beneficiaries.importTemplate': () =>
      imports.saveFile(exportFileName(profiles.active().name, 'beneficiary-import-template', 'xlsx'), (file) =>
        writeImportTemplate(file, imports.now()),
      ),
    'beneficiaries.importResults': ({ report }) =>
      imports.saveFile(exportFileName(profiles.active().name, `beneficiary-import-results-${day()}`, 'xlsx'), (file) =>
        writeImportResults(file, imports.now(), report),
      ),
  };
}
