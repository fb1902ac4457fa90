import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";

interface DialogProps {
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
  /** A destructive action: the confirm button is styled as a danger. */
  danger?: boolean;
}

/**
 * A modal confirmation on the native <dialog>: the browser keeps focus inside it, Escape cancels, and focus goes
 * back to the element that opened it.
 */
export function ConfirmDialog({ title, children, confirmLabel, onConfirm, onCancel, busy, danger }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement as HTMLElement | null;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      dialog?.close();
      // The dialog leaves the page with its caller's state: focus goes back to what opened it, when still there.
      queueMicrotask(() => opener?.isConnected && opener.focus());
    };
  }, []);
  return (
    <dialog
      ref={ref}
      aria-labelledby="dialog-title"
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      <h2 id="dialog-title">{title}</h2>
      {children}
      <div class="actions">
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" class={danger ? "danger" : undefined} disabled={busy} onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
