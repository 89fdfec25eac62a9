import { type ReactNode, useEffect, useId, useRef } from 'react';

/**
 * A modal dialog: `<dialog>` opened with `showModal()` (the browser makes the rest of the page
 * inert and traps focus), labelled by its title, closed by Escape or the close button; focus
 * returns to whatever had it before. On opening, the focus goes to the element marked
 * `data-autofocus` (the command field, a form's first field, Cancel of a confirmation), else to
 * the first form field: what one types at once goes there, not to the close button.
 */
export function Dialog(props: {
  title: string;
  onClose(): void;
  children: ReactNode;
  wide?: boolean;
  /** `alertdialog` for a confirmation: it interrupts and asks. */
  role?: 'dialog' | 'alertdialog';
  /** Ids of the elements that say what the dialog is about (a confirmation's question). */
  describedBy?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const { onClose } = props;
  useEffect(() => {
    const dialog = ref.current;
    const before = document.activeElement as HTMLElement | null;
    if (dialog && !dialog.open) {
      dialog.showModal();
      const first =
        dialog.querySelector<HTMLElement>('[data-autofocus]') ??
        dialog.querySelector<HTMLElement>('input:not([type="hidden"]), textarea, select');
      first?.focus();
    }
    return () => {
      dialog?.close();
      // The element that opened the dialog may be gone (a row re-rendered): then nothing.
      if (before?.isConnected) before.focus();
    };
  }, []);
  useEffect(() => {
    const dialog = ref.current;
    const cancel = (event: Event) => {
      event.preventDefault();
      onClose();
    };
    dialog?.addEventListener('cancel', cancel);
    return () => dialog?.removeEventListener('cancel', cancel);
  }, [onClose]);
  return (
    <dialog
      ref={ref}
      className={`dialog${props.wide ? ' dialog-wide' : ''}`}
      aria-labelledby={titleId}
      aria-describedby={props.describedBy}
      role={props.role === 'alertdialog' ? 'alertdialog' : undefined}
    >
      <header className="dialog-header">
        <h2 id={titleId}>{props.title}</h2>
        <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </header>
      {props.children}
    </dialog>
  );
}
