/**
 * Formula injection (CSV/spreadsheet injection): a text value that a spreadsheet would read as a formula, such as
 * `=HYPERLINK(...)` in a beneficiary name, runs when an accountant opens the export. OWASP's list of leading characters
 * that start a formula: `=`, `+`, `-`, `@`, tab and carriage return. Each writer neutralises such text its own way
 * (a quote-prefix cell style in XLSX, an apostrophe in CSV); `needsInjectionGuard` is the rule both follow.
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

/**
 * A CSV has no cells of its own: the reader decides where one ends. Excel in many locales, and LibreOffice when
 * asked, split on `;`, and other tools on tab or `|`; quotes only group text that starts a field of *that*
 * separator, so `x;=HYPERLINK(…)` (a single field to a comma reader) is the cell `=HYPERLINK(…)` to a semicolon
 * reader whatever our quoting. So an apostrophe also goes before a formula character that follows any common
 * separator (spaces between allowed, since a reader may trim them), not only at the start of the value. A line
 * break is a separator too: to a reader whose separator leaves our quotes mid-field, a CR or LF inside a value
 * ends the row, and what follows it (`Acme\n=1+1;` in an address) starts a cell of the next one.
 */
const FORMULA_AFTER_SEPARATOR = /([,;\t|\r\n] *)(?=[=+\-@\t\r])/g;

export function guardCsvText(text: string): string {
  const inner = text.replace(FORMULA_AFTER_SEPARATOR, "$1'");
  return needsInjectionGuard(inner) ? `'${inner}` : inner;
}
