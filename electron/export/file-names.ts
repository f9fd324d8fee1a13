/**
 * Names of export files made from text the app does not control (a profile's name, a filter's gateway code). Each
 * part is cut down to letters, digits and single dashes and capped, so a suggested name is one plain file name: no
 * separator, no "..", no drive letter, no reserved device name, nothing hidden. The folder check after joining is
 * the second line: whatever the name, the path it makes must be a direct child of the folder it was meant for.
 */
import { basename, dirname, resolve } from 'node:path';

/** Long enough for a profile name or gateway code to stay recognisable; short of every file system's limit. */
export const NAME_PART_MAX = 40;

/** `text` as one safe part of a file name: lower-case ASCII letters, digits and dashes, at most `max` characters. */
export function fileNamePart(text: string, fallback: string, max: number = NAME_PART_MAX): string {
  const part = text
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .toLowerCase()
    .slice(0, max)
    .replace(/^-+|-+$/g, '');
  return part || fallback;
}

export class ExportPathError extends Error {
  override name = 'ExportPathError';
  readonly code = 'EXPORT_PATH_REFUSED';
}

/** `file` itself when it lies directly in `folder`; otherwise refused, so nothing is written anywhere else. */
export function insideFolder(folder: string, file: string): string {
  const resolved = resolve(file);
  if (dirname(resolved) !== resolve(folder) || basename(resolved).startsWith('.')) {
    throw new ExportPathError(`The export was not written: ${file} is not a file in ${folder}.`);
  }
  return resolved;
}
