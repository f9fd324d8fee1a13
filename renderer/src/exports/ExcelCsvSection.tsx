/**
 * The Settings screen's choice of how "Excel-safe CSV" writes identifiers. Kept here rather than beside the button:
 * a choice on the Settlements toolbar wrapped it onto a second line at 1280×800. Applies at once, to every screen's
 * button, as a table's density does.
 */
import { useExcelCsvForm, type ExcelCsvForm } from './excel-csv-form';

const FORMS: readonly { form: ExcelCsvForm; label: string; hint: string }[] = [
  {
    form: 'tab',
    label: 'Identifiers as tab-prefixed text (any spreadsheet)',
    hint: 'The tab stays in the cell: a VLOOKUP or MATCH against another sheet needs CLEAN().',
  },
  {
    form: 'formula',
    label: 'Identifiers as formulas ="…" (Excel only)',
    hint: 'Excel shows exactly the identifier, with nothing to clean; any other program reading the file sees the =" and ".',
  },
];

export function ExcelCsvSection() {
  const [current, choose] = useExcelCsvForm();
  return (
    <section className="settings-section" aria-labelledby="excel-csv-title">
      <div className="section-head">
        <div>
          <h2 id="excel-csv-title">CSV for Excel</h2>
          <p className="muted">
            How the Excel-safe CSV button keeps UTRs, ids and account numbers as text. The file&apos;s .about.txt says
            which form it holds. Systems should read the plain CSV (Export CSV).
          </p>
        </div>
      </div>
      <fieldset className="excel-csv-forms">
        <legend>Identifiers in the Excel-safe CSV</legend>
        {FORMS.map(({ form, label, hint }) => (
          <label key={form}>
            <input type="radio" name="excel-csv-ids" checked={current === form} onChange={() => choose(form)} />
            <span>
              {label}
              <span className="muted excel-csv-hint">{hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
    </section>
  );
}
