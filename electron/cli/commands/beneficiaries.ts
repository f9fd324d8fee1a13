/**
 * `beneficiaries add|get|changed|import|template` (`beneficiary` is an alias), recorded in the cache like the app's.
 * Adding is never retried by the client: a lost answer says what to check. The form is checked by the shared schema
 * before anything is sent, and its IFSC against Razorpay's IFSC list (its bank named, or a warning when the list does
 * not hold it). `get` shows every bank-detail change the cache kept (a fraud signal); `changed` lists
 * the payees with one, from the cache, so it answers offline too.
 */
import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import { describeIssues } from '../../../shared/api/operations';
import {
  BENEFICIARY_FIELDS,
  beneficiaryForm,
  type BankDetailChange,
  type CachedBeneficiary,
  normaliseBeneficiaryText,
  type BeneficiaryField,
} from '../../../shared/beneficiaries';
import {
  headerMapping,
  OUTCOME_LABELS,
  type HeaderMapping,
  type ImportReport,
} from '../../../shared/beneficiary-import';
import { writeImportResults, writeImportTemplate } from '../../export/beneficiary-import-sheets';
import { readSheet, SheetReadError } from '../../import/sheet-reader';
import { isPendingApproval, type PendingApproval } from '../../../shared/approvals';
import type { Command, Values } from '../command';
import { InputError, actionResult, OutcomeUnknownError, UsageError, istText, progressLine, result, table } from '../io';
import { readInputFile } from '../local-files';
import { checkIfsc } from '../../treasury/ifsc';
import { cancelOnInterrupt } from './settlements';

const add: Command = {
  words: ['beneficiaries', 'add'],
  usage:
    'beneficiaries add --name N [--account-number N --ifsc CODE] [--vpa ADDR] [--phone P] [--email E] [--address A]',
  options: {
    name: { type: 'string' },
    'account-number': { type: 'string' },
    ifsc: { type: 'string' },
    vpa: { type: 'string' },
    phone: { type: 'string' },
    email: { type: 'string' },
    address: { type: 'string' },
  },
  async run({ ctx, values, io }) {
    // Normalised as the app's form and the import do: "+91 98765 43210", "1234 5678 9012", "hdfc0001234".
    const text = (k: string, field: BeneficiaryField) =>
      typeof values[k] === 'string' ? normaliseBeneficiaryText(field, values[k] as string) : undefined;
    const form = beneficiaryForm.safeParse({
      name: text('name', 'name') ?? '',
      account_number: text('account-number', 'account_number'),
      ifsc: text('ifsc', 'ifsc'),
      vpa: text('vpa', 'vpa'),
      phone: text('phone', 'phone'),
      email: text('email', 'email'),
      address: text('address', 'address'),
    });
    if (!form.success) throw new InputError(`Check the form: ${describeIssues(form.error)}.`);
    // Said before sending, as the form says it while the IFSC is typed: a warning, the payee is still added.
    const ifsc = form.data.ifsc ? await checkIfsc(form.data.ifsc) : null;
    if (ifsc?.warning) io.err(`Warning: ${ifsc.warning}`);
    const r = await ctx.core.approvals.gate(ctx.profile.id, randomUUID(), {
      action: 'beneficiary.add',
      beneficiary: form.data,
    });
    actionResult(
      io,
      r,
      ({ beneficiary, message }) =>
        `Added beneficiary ${beneficiary.beneficiary_id}${message ? ` (${message})` : ''}.` +
        (ifsc?.bank
          ? `
Bank: ${ifsc.bank} (${ifsc.ifsc}).`
          : ''),
      ({ beneficiary, message }) => ({ beneficiary_id: beneficiary.beneficiary_id, message, beneficiary, ifsc }),
    );
  },
};

/** One change as a line: "15/06/2026, 12:00:03 pm IST: account 9999…1111 (UTIB0000999) → …". */
function changeLine(c: BankDetailChange): string {
  const route = (d: BankDetailChange['before']) =>
    [d.account_number ? `account ${d.account_number} (${d.ifsc ?? '-'})` : null, d.vpa ? `UPI ${d.vpa}` : null]
      .filter(Boolean)
      .join(', ') || 'none';
  return `${istText(c.changedAt)}: ${route(c.before)} -> ${route(c.after)}`;
}

const get: Command = {
  words: ['beneficiaries', 'get'],
  usage: 'beneficiaries get ID   (fetched from the service; any bank-detail change the cache kept is listed)',
  positionals: { min: 1, max: 1, names: 'ID' },
  async run({ ctx, positionals, io }) {
    const b = await ctx.core.treasury.beneficiaries.fetch(ctx.profile.id, positionals[0]!);
    const changes = ctx.core.treasury.beneficiaries.changes(ctx.profile.id, b.beneficiary_id);
    result(io, { ...b, changes }, () =>
      [
        `Beneficiary ${b.beneficiary_id}: ${b.name}`,
        ...(b.bankDetailsChangedAt ? [`  BANK DETAILS CHANGED on ${istText(b.bankDetailsChangedAt)}`] : []),
        `  bank account ${b.account_number ? `${b.account_number} (${b.ifsc})` : '-'}`,
        `  UPI          ${b.vpa || '-'}`,
        `  phone        ${b.phone || '-'}`,
        `  email        ${b.email || '-'}`,
        ...changes.map((c) => `  changed      ${changeLine(c)}`),
      ].join('\n'),
    );
  },
};

const changed: Command = {
  words: ['beneficiaries', 'changed'],
  usage: 'beneficiaries changed   (payees whose bank details changed, with each change; from the cache, offline too)',
  async run({ ctx, io }) {
    const rows: { beneficiary: CachedBeneficiary; changes: BankDetailChange[] }[] = [];
    let after: string | undefined;
    do {
      const page = ctx.core.treasury.beneficiaries.list(ctx.profile.id, { changed: true, after, limit: 500 });
      for (const b of page.rows) {
        rows.push({
          beneficiary: b,
          changes: ctx.core.treasury.beneficiaries.changes(ctx.profile.id, b.beneficiary_id),
        });
      }
      after = page.nextCursor ?? undefined;
    } while (after !== undefined);
    result(io, rows, () =>
      rows.length === 0
        ? 'No cached payee has had its bank details changed.'
        : rows
            .flatMap(({ beneficiary: b, changes }) => [
              `${b.beneficiary_id}: ${b.name}`,
              ...changes.map((c) => `  ${changeLine(c)}`),
            ])
            .join('\n'),
    );
  },
};

/** `--map "Vendor A/c=account_number"`, repeated: the mapping step of the UI. */
function parseMapping(values: Values): HeaderMapping {
  const given = values.map;
  const pairs = (Array.isArray(given) ? given : given === undefined ? [] : [given]).map(String);
  const mapping: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.lastIndexOf('=');
    if (at <= 0) throw new UsageError(`--map takes "Header=field", got "${pair}"`);
    mapping[pair.slice(0, at)] = pair.slice(at + 1).trim();
  }
  const parsed = headerMapping.safeParse(mapping);
  if (!parsed.success) {
    throw new UsageError(`--map: a field is one of ${BENEFICIARY_FIELDS.join(', ')} or ignore`);
  }
  return parsed.data;
}

/** What a finished import ends with: 3 if any row's outcome is unknown, 1 refused or not sent, 2 invalid rows, else 0. */
function importExit(report: ImportReport, dryRun: boolean): Error | null {
  const c = report.counts;
  if (c.unknown > 0) return new OutcomeUnknownError(`${c.unknown} rows: outcome unknown — check status.`);
  if (c.refused + c.not_sent > 0) return new Error(`${c.refused} rows refused by the service, ${c.not_sent} not sent.`);
  if (c.invalid > 0) return new InputError(`${c.invalid} rows are invalid${dryRun ? '' : ' and were not sent'}.`);
  return null;
}

function summary(report: ImportReport): string {
  const rows = report.rows.map((r) => [
    String(r.row),
    r.name,
    r.ifscWarning ? `${r.ifsc}: not in the IFSC list` : (r.bank ?? ''),
    OUTCOME_LABELS[r.outcome],
    r.beneficiaryId ?? '',
    r.reason ?? '',
  ]);
  const warnings = report.rows.filter((r) => r.ifscWarning).map((r) => `Row ${r.row}: ${r.ifscWarning}`);
  const counts = Object.entries(report.counts)
    .filter(([, n]) => n > 0)
    .map(([o, n]) => `${OUTCOME_LABELS[o as keyof typeof OUTCOME_LABELS]}: ${n}`)
    .join(', ');
  return [
    table(['ROW', 'NAME', 'BANK', 'OUTCOME', 'BENEFICIARY', 'REASON'], rows, ['right']),
    ...warnings,
    counts,
  ].join('\n');
}

const importFile: Command = {
  words: ['beneficiaries', 'import'],
  usage:
    'beneficiaries import FILE.xlsx|FILE.csv [--dry-run] [--map "Header=field"]... [--results OUT.xlsx]   (a rerun creates nothing twice)',
  options: {
    'dry-run': { type: 'boolean' },
    map: { type: 'string', multiple: true },
    results: { type: 'string' },
  },
  positionals: { min: 1, max: 1, names: 'FILE' },
  async run({ ctx, values, positionals, io }) {
    const path = positionals[0]!;
    const mapping = parseMapping(values);
    const resultsPath = typeof values.results === 'string' ? values.results : undefined;
    if (resultsPath !== undefined && !resultsPath.toLowerCase().endsWith('.xlsx')) {
      throw new UsageError(`--results must end in .xlsx, got "${resultsPath}"`);
    }
    const bytes = readInputFile(path, 'The import file');
    const sheet = await readSheet(basename(path), bytes).catch((e: unknown) => {
      throw e instanceof SheetReadError ? new UsageError(e.message) : e;
    });
    const service = ctx.core.treasury.beneficiaryImport;
    const dryRun = values['dry-run'] === true;
    const planned = await service.preview(ctx.profile.id, sheet, mapping);
    if (planned.problems.length) {
      const how = planned.unknownHeaders.length
        ? ' Map each with --map "Header=field", or leave it out with --map "Header=ignore".'
        : '';
      throw new UsageError(planned.problems.join(' ') + how);
    }
    let report: ImportReport | PendingApproval = planned;
    if (!dryRun) {
      const interrupt = cancelOnInterrupt(io, 'rows already sent are kept; run the same import again to finish');
      const progress = progressLine(io);
      try {
        report = await service.run(ctx.profile.id, sheet, mapping, {
          signal: interrupt.signal,
          onProgress: ({ done, total }) => {
            if (!io.json && (done % 25 === 0 || done === total)) progress.update(`rows ${done}/${total}`);
          },
        });
      } finally {
        progress.done();
        interrupt.dispose();
      }
    }
    // A batch the desk's policy sent for approval created nothing yet: no results to write, exit 0.
    if (isPendingApproval(report)) return actionResult(io, report, () => '');
    const sent = report;
    if (resultsPath !== undefined) await writeImportResults(resultsPath, new Date(ctx.now()), sent);
    result(io, { dryRun, ...sent }, () => summary(sent));
    const partial = importExit(sent, dryRun);
    if (partial) throw partial;
  },
};

const template: Command = {
  words: ['beneficiaries', 'template'],
  usage: 'beneficiaries template OUT.xlsx   (the import template: its headers, text columns, an example row)',
  positionals: { min: 1, max: 1, names: 'OUT.xlsx' },
  async run({ ctx, positionals, io }) {
    const out = positionals[0]!;
    if (!out.toLowerCase().endsWith('.xlsx')) throw new UsageError(`the template is an .xlsx file, got "${out}"`);
    await writeImportTemplate(out, new Date(ctx.now()));
    result(io, { file: out }, () => `Wrote the import template to ${out}.`);
  },
};

export const beneficiaryCommands = [add, get, changed, importFile, template];
