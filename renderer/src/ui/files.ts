/**
 * The most of a file the window reads: the main process refuses a sheet over 20 MB (SHEET_MAX_BYTES) by the length
 * of what it is sent, so a larger file is cut just past the limit rather than read whole into the window.
 */
const SENT_MAX_BYTES = 20 * 1024 * 1024 + 3;

/** A file's bytes as base64, in chunks so a large file does not overflow the argument list. */
export async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.slice(0, SENT_MAX_BYTES).arrayBuffer());
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}
