import type { ReactNode } from 'react';
import { Dialog } from './ui/Dialog';

interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm(): void;
  onCancel(): void;
  /** The action is being sent: confirming again does nothing. */
  busy?: boolean;
  /** Why the action cannot be confirmed yet, shown on hover; confirming does nothing until it is gone. */
  blocked?: string;
  /** Added to the body's class. */
  className?: string;
}

/** A confirmation: focus starts on Cancel, so a stray Enter never confirms a destructive action. */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  onConfirm,
  onCancel,
  busy,
  blocked,
  className,
}: ConfirmDialogProps) {
  const disabled = Boolean(busy) || blocked !== undefined;
  return (
    <Dialog
      title={title}
      onCancel={onCancel}
      actions={
        <>
          <button type="button" className="button" autoFocus onClick={onCancel}>
            Cancel
          </button>
          <button
            type="button"
            className="button button-danger"
            disabled={disabled}
            aria-busy={busy}
            title={blocked}
            onClick={() => {
              if (!disabled) onConfirm();
            }}
          >
            {confirmLabel}
          </button>
        </>
      }
    >
      <div className={className ? `dialog-body ${className}` : 'dialog-body'}>{children}</div>
    </Dialog>
  );
}
