import type { ReactNode } from 'react';
import { Dialog } from './dialog';
import { ErrorNotice } from './notices';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  confirmLabel: string;
  busy: boolean;
  error: unknown;
  danger?: boolean;
  onConfirm: () => void;
  onClose: () => void;
  children: ReactNode;
}

/** "Are you sure?" for what cannot be undone; Cancel has the focus, so Enter does no harm. */
export function ConfirmDialog({
  open,
  title,
  confirmLabel,
  busy,
  error,
  danger = false,
  onConfirm,
  onClose,
  children,
}: ConfirmDialogProps) {
  return (
    <Dialog open={open} title={title} onClose={onClose}>
      {children}
      <ErrorNotice error={error} />
      <div className="actions">
        <button type="button" onClick={onClose} autoFocus>
          Cancel
        </button>
        <button
          type="button"
          className={danger ? 'button-danger' : 'button-primary'}
          onClick={onConfirm}
          disabled={busy}
        >
          {busy ? 'Working…' : confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
