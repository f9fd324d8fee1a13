/**
 * Formula injection (CSV/spreadsheet injection): a text value that a spreadsheet would read as a formula, such as
 * `=HYPERLINK(...)` in a beneficiary name, runs when an accountant opens the export. OWASP's list of leading characters
 * that start a formula: `=`, `+`, `-`, `@`, tab and carriage return. Each writer neutralises such text its own way
 * (a quote-prefix cell style in XLSX, a leading apostrophe in CSV); this predicate is the one rule both follow.
 */
export function needsInjectionGuard(text: string): boolean {
  switch (text.charCodeAt(0)) {
    case 0x3d: // =
    case 0x2b: // +
    case 0x2d: // -
    case 0x40: // @
    case 0x09: // tab
    case 0x0d: // carriage return
      return true;
    default:
      return false;
  }
}
