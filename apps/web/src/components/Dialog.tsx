import { type ReactNode, useEffect, useId, useRef } from 'react';

/**
 * A modal dialog: `<dialog>` opened with `showModal()` (the browser makes the rest of the page
 * inert and traps focus), labelled by its title, closed by Escape or the close button; focus
 * returns to whatever had it before.
 */
export function Dialog(props: { title: string; onClose(): void; children: ReactNode; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const { onClose } = props;
  useEffect(() => {
    const dialog = ref.current;
    const before = document.activeElement as HTMLElement | null;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      dialog?.close();
      before?.focus?.();
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
    <dialog ref={ref} className={`dialog${props.wide ? ' dialog-wide' : ''}`} aria-labelledby={titleId}>
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
