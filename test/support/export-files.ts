/**
 * Export files read back with readers that share no code with the app's writers: JSZip (exceljs's own unzipper)
 * for an XLSX's parts, fast-csv (exceljs's CSV parser) for a CSV, and openpyxl, Python's reader, for a second
 * opinion on a workbook's values. Both JavaScript readers come with exceljs, so they are always installed with it.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
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
  /** "1:1" when the header row repeats on every page. */
  print_title_rows: string | null;
  /** The footer's left and right sections. */
  footer: [string | null, string | null];
}

/** Each sheet's print setup as openpyxl loads it (workbook-sums.py --print); for small workbooks. */
export function openpyxlPrintSetup(file: string): Record<string, OpenpyxlPrintSetup> {
  return runSumsScript(['--print', file]) as Record<string, OpenpyxlPrintSetup>;
}
