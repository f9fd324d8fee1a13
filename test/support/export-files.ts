/**
 * Export files read back with readers that share no code with the app's writers: JSZip (exceljs's own unzipper)
 * for an XLSX's parts, fast-csv (exceljs's CSV parser) for a CSV, openpyxl and Python's csv module for a second
 * opinion, and LibreOffice Calc (headless) opening a file as a person would, saving it as XLSX or PDF. Both
 * JavaScript readers come with exceljs, so they are always installed with it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, parse } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseString } from '@fast-csv/parse';
import JSZip from 'jszip';

/** Every part of a ZIP package (an XLSX), inflated, as text, by part name. */
export async function zipParts(file: string): Promise<Map<string, string>> {
  const zip = await JSZip.loadAsync(readFileSync(file));
  const parts = new Map<string, string>();
  for (const entry of Object.values(zip.files)) {
    if (!entry.dir) parts.set(entry.name, await entry.async('string'));
  }
  return parts;
}

const unescapeXml = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** A worksheet's XML by the sheet's name, found through the workbook and its relationships as Excel does. */
export function sheetXml(parts: ReadonlyMap<string, string>, name: string): string {
  const sheets = (parts.get('xl/workbook.xml') ?? '').matchAll(/<sheet name="([^"]*)"[^>]*? r:id="([^"]+)"/g);
  const id = [...sheets].find((m) => unescapeXml(m[1]!) === name)?.[2];
  const rels = (parts.get('xl/_rels/workbook.xml.rels') ?? '').matchAll(
    /<Relationship Id="([^"]+)"[^>]*? Target="([^"]+)"/g,
  );
  const target = [...rels].find((m) => m[1] === id)?.[2];
  const xml = target === undefined ? undefined : parts.get(`xl/${target}`);
  if (xml === undefined) throw new Error(`no worksheet named "${name}" in the package`);
  return xml;
}

/** The cellXfs style index of every cell in a worksheet's XML, by reference ("B7"). */
export function cellStyles(xml: string): Map<string, number> {
  const styles = new Map<string, number>();
  for (const m of xml.matchAll(/<c r="([A-Z]+\d+)"(?: s="(\d+)")?/g)) styles.set(m[1]!, Number(m[2] ?? 0));
  return styles;
}

/** The `<xf>` elements of styles.xml's cellXfs, in index order. */
export function cellXfs(parts: ReadonlyMap<string, string>): string[] {
  const list = /<cellXfs[^>]*>(.*?)<\/cellXfs>/s.exec(parts.get('xl/styles.xml') ?? '')?.[1] ?? '';
  return list.match(/<xf [^>]*?\/?>/g) ?? [];
}

const BOM = '\ufeff';

/** A CSV file's records (the header first) and whether it starts with the UTF-8 byte order mark. */
export async function readCsv(file: string): Promise<{ bom: boolean; records: string[][] }> {
  const text = readFileSync(file, 'utf8');
  const bom = text.startsWith(BOM);
  const records = await new Promise<string[][]>((resolve, reject) => {
    const rows: string[][] = [];
    parseString<string[], string[]>(bom ? text.slice(BOM.length) : text, { headers: false })
      .on('data', (row: string[]) => rows.push(row))
      .on('error', reject)
      .on('end', () => resolve(rows));
  });
  return { bom, records };
}

/** Debian's python3 with python3-openpyxl; the python3 first on PATH may be another one without it. */
const PYTHON = '/usr/bin/python3';
const SUMS_SCRIPT = fileURLToPath(new URL('./workbook-sums.py', import.meta.url));

/** Null when Python 3 runs (for its csv module), else why not. */
export function pythonProblem(): string | null {
  const probe = spawnSync(PYTHON, ['-V'], { encoding: 'utf8' });
  if (probe.error) return `${PYTHON} cannot be run (${probe.error.message}); install python3`;
  return probe.status === 0 ? null : `${PYTHON} -V failed: ${probe.stderr.trim()}`;
}

/** Null when openpyxl can be imported, else why not (for `requireSystem`). */
export function openpyxlProblem(): string | null {
  const probe = spawnSync(PYTHON, ['-c', 'import openpyxl'], { encoding: 'utf8' });
  if (probe.error) return `${PYTHON} cannot be run (${probe.error.message}); install python3 and python3-openpyxl`;
  return probe.status === 0 ? null : `${PYTHON} has no openpyxl (${probe.stderr.trim()}); install python3-openpyxl`;
}

export interface OpenpyxlSheet {
  /** Rows below the header. */
  rows: number;
  /** Rows below the header as the sheet's `<dimension>` states them; null without one. */
  declared: number | null;
  /** Rows a streaming reader returned shorter than the header. */
  short_rows: number;
  /** Per money column (header ending "(INR)"): the sum of its cells in paise, added up as Python Decimals. */
  sums: Record<string, number>;
  /** Per column: the kinds of value openpyxl read ("str", "number", "datetime"), sorted. */
  kinds: Record<string, string[]>;
}

function runSumsScript(args: string[]): unknown {
  const run = spawnSync(PYTHON, [SUMS_SCRIPT, ...args], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
    timeout: 120_000,
  });
  if (run.status !== 0) throw new Error(`workbook-sums.py failed: ${run.stderr || run.error?.message}`);
  return JSON.parse(run.stdout);
}

/** What openpyxl reads in a workbook, sheet by sheet (workbook-sums.py). */
export function openpyxlSums(file: string): Record<string, OpenpyxlSheet> {
  return runSumsScript([file]) as Record<string, OpenpyxlSheet>;
}

export interface OpenpyxlPrintSetup {
  orientation: string | null;
  fit_to_width: number | null;
  fit_to_height: number | null;
  fit_to_page: boolean;
  /** Per cent; null when the sheet does not set one. */
  scale: number | null;
  /** The zero-based index of the first column of each next page width (manual column breaks). */
  column_breaks: number[];
  /** "1:1" when the header row repeats on every page. */
  print_title_rows: string | null;
  /** The footer's left and right sections. */
  footer: [string | null, string | null];
  /** Rows under the header row. */
  rows: number;
}

/** Each sheet's print setup as openpyxl loads it (workbook-sums.py --print); for small workbooks. */
export function openpyxlPrintSetup(file: string): Record<string, OpenpyxlPrintSetup> {
  return runSumsScript(['--print', file]) as Record<string, OpenpyxlPrintSetup>;
}

/** A cell as openpyxl read it: its data type ("s", "n", "d", "f" for a formula) and value. */
export type TypedValue = [type: string, value: string | number | boolean | null];

/** Every cell of every sheet of a small workbook, typed (sheet-cells.py). */
export function openpyxlCells(file: string): Record<string, TypedValue[][]> {
  const script = fileURLToPath(new URL('./sheet-cells.py', import.meta.url));
  const run = spawnSync(PYTHON, [script, file], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 120_000 });
  if (run.status !== 0) throw new Error(`sheet-cells.py failed: ${run.stderr || run.error?.message}`);
  return JSON.parse(run.stdout) as Record<string, TypedValue[][]>;
}

/** The fields of a CSV as Python's csv module splits it with `delimiter` (as a spreadsheet in that locale would). */
export function pythonCsvFields(file: string, delimiter: string): string[][] {
  const script =
    'import csv, json, sys\n' +
    'with open(sys.argv[1], newline="", encoding="utf-8-sig") as f:\n' +
    '    print(json.dumps(list(csv.reader(f, delimiter=sys.argv[2]))))';
  const run = spawnSync(PYTHON, ['-c', script, file, delimiter], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 60_000,
  });
  if (run.status !== 0) throw new Error(`python csv failed: ${run.stderr || run.error?.message}`);
  return JSON.parse(run.stdout) as string[][];
}

const SOFFICE = 'soffice';

/** Null when LibreOffice Calc runs headless, else why not (for `requireSystem`). */
export function libreofficeProblem(): string | null {
  const probe = spawnSync(SOFFICE, ['--version'], { encoding: 'utf8', timeout: 60_000 });
  if (probe.error) return `${SOFFICE} cannot be run (${probe.error.message}); install libreoffice-calc-nogui`;
  return probe.status === 0 ? null : `${SOFFICE} --version failed: ${probe.stderr.trim()}`;
}

/**
 * Opens files in LibreOffice Calc, headless, and saves them as `to` ("xlsx", "xls", "pdf", or an extension with
 * its filter and options: `pdf:calc_pdf_Export:{…}`) in `outDir`; returns the paths written, in the order given. `csvFilter` is Calc's CSV import options (separator, quote, charset, first line, …),
 * for CSV input. A profile of its own per call, so runs never share LibreOffice's user folder or lock.
 */
export function libreofficeConvert(files: string[], to: string, outDir: string, csvFilter?: string): string[] {
  const profile = join(outDir, `.lo-profile-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const args = [
    '--headless',
    '--norestore',
    `-env:UserInstallation=${pathToFileURL(profile).href}`,
    ...(csvFilter ? [`--infilter=CSV:${csvFilter}`] : []),
    '--convert-to',
    to,
    '--outdir',
    outDir,
    ...files,
  ];
  const run = spawnSync(SOFFICE, args, { encoding: 'utf8', timeout: 180_000 });
  rmSync(profile, { recursive: true, force: true });
  const out = files.map((f) => join(outDir, `${parse(f).name}.${to.split(':')[0]!}`));
  const missing = out.filter((f) => !existsSync(f));
  if (run.status !== 0 || missing.length > 0) {
    throw new Error(`LibreOffice did not convert ${missing.join(', ')}: ${run.stderr || run.error?.message}`);
  }
  return out;
}

/** A word of a PDF page as poppler places it, in points from the page's top left. */
export interface PdfWord {
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

/**
 * The words of each page of a PDF with their boxes (pdftotext -bbox), in page order. A box is as tall as the font's
 * ascent and descent at the size it is printed, so boxes of one font compare as their type sizes do.
 */
export function pdfWords(file: string): PdfWord[][] {
  const run = spawnSync('pdftotext', ['-bbox', file, '-'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 60_000,
  });
  if (run.status !== 0) throw new Error(`pdftotext -bbox failed: ${run.stderr || run.error?.message}`);
  const word = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g;
  return run.stdout
    .split('<page ')
    .slice(1)
    .map((page) =>
      [...page.matchAll(word)].map(([, xMin, yMin, xMax, yMax, text]) => ({
        text: text!
          .replace(/&amp;/g, '&')
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
          .replace(/&quot;/g, '"'),
        xMin: Number(xMin),
        yMin: Number(yMin),
        xMax: Number(xMax),
        yMax: Number(yMax),
      })),
    );
}

/**
 * Null when fontconfig finds Carlito, else why not. Carlito is metric-compatible with Calibri, the workbooks' font:
 * without it LibreOffice prints in a wider substitute (DejaVu Sans, a third wider), so a PDF of ours would not show
 * what Excel, or LibreOffice on a desk (whose installers bundle Carlito), prints.
 */
export function carlitoProblem(): string | null {
  const probe = spawnSync('fc-list', ['Carlito', 'family'], { encoding: 'utf8' });
  if (probe.error) return `fc-list cannot be run (${probe.error.message}); install fontconfig`;
  return /Carlito/.test(probe.stdout) ? null : 'fontconfig has no Carlito; install fonts-crosextra-carlito';
}

/** Null when pdftotext runs, else why not. */
export function pdftotextProblem(): string | null {
  const probe = spawnSync('pdftotext', ['-v'], { encoding: 'utf8' });
  return probe.error ? `pdftotext cannot be run (${probe.error.message}); install poppler-utils` : null;
}

/** A cell for `openpyxlWrite`: empty, text (kept as text even when it looks like a number), or a number cell. */
export type SheetInput = null | string | { n: number; fmt?: string };

/**
 * Writes rows into a new workbook with openpyxl (write-sheet.py): an import file from an independent writer. With
 * `page`, the columns get those widths and the sheet prints landscape one page wide (for a PDF made from it); with
 * `points`, every cell is Calibri of that size, printed at 100% (a reference for the size of printed text).
 */
export function openpyxlWrite(
  file: string,
  rows: SheetInput[][],
  page?: { widths: number[] } | { points: number },
): void {
  const script = fileURLToPath(new URL('./write-sheet.py', import.meta.url));
  const input = JSON.stringify(
    page ? ('points' in page ? { rows, ...page } : { rows, widths: page.widths, fit: true }) : rows,
  );
  const run = spawnSync(PYTHON, [script, file], { input, encoding: 'utf8', timeout: 120_000 });
  if (run.status !== 0) throw new Error(`write-sheet.py failed: ${run.stderr || run.error?.message}`);
}
