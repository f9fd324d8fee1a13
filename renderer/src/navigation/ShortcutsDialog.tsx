import { Dialog } from '../ui/Dialog';
import { SCREENS } from './screens';

/** The `?` list: every shortcut the console answers, from the same registry the keys are read from. */
export function ShortcutsDialog({ onClose }: { onClose(): void }) {
  return (
    <Dialog
      title="Keyboard shortcuts"
      onCancel={onClose}
      actions={
        <button type="button" className="button button-primary" autoFocus onClick={onClose}>
          Close
        </button>
      }
    >
      <dl className="facts shortcuts">
        {SCREENS.map((s) => (
          <div key={s.id} className="shortcut-row">
            <dt>
              <kbd>g</kbd> <kbd>{s.key}</kbd>
            </dt>
            <dd>{s.label}</dd>
          </div>
        ))}
        <div className="shortcut-row">
          <dt>
            <kbd>/</kbd> or <kbd>Ctrl</kbd>+<kbd>F</kbd>
          </dt>
          <dd>Search on this screen</dd>
        </div>
        <div className="shortcut-row">
          <dt>
            <kbd>↑</kbd> <kbd>↓</kbd> <kbd>Enter</kbd>
          </dt>
          <dd>Move through a table, open a row</dd>
        </div>
        <div className="shortcut-row">
          <dt>
            <kbd>?</kbd>
          </dt>
          <dd>This list</dd>
        </div>
      </dl>
    </Dialog>
  );
}
