import { type ReactNode, useCallback, useId, useRef, useState } from 'react';
import { Dialog } from './Dialog';

export type ConfirmRequest = {
  /** The question, naming what goes: "Delete the user bob (Bob Example)?" */
  title: string;
  /** What happens to it: whether it can be restored, what else goes with it. */
  body: ReactNode;
  /** The button that does it: "Delete user", "Move to trash". */
  action: string;
};

/**
 * A confirmation before anything is deleted: `confirm(request)` opens an alert dialog and answers
 * whether the person chose the action (Cancel, Escape or × answer false). The focus starts on
 * Cancel: a stray Enter deletes nothing. Render `dialog` where the component renders.
 */
export function useConfirm(): { confirm(request: ConfirmRequest): Promise<boolean>; dialog: ReactNode } {
  const [request, setRequest] = useState<ConfirmRequest | null>(null);
  const answer = useRef<(yes: boolean) => void>(() => undefined);
  const bodyId = useId();
  const confirm = useCallback(
    (next: ConfirmRequest) =>
      new Promise<boolean>((resolve) => {
        answer.current(false);
        answer.current = resolve;
        setRequest(next);
      }),
    [],
  );
  const close = useCallback((yes: boolean) => {
    const resolve = answer.current;
    answer.current = () => undefined;
    setRequest(null);
    resolve(yes);
  }, []);
  const cancel = useCallback(() => close(false), [close]);
  const dialog = request && (
    <Dialog title={request.title} onClose={cancel} role="alertdialog" describedBy={bodyId}>
      <div className="confirm">
        <div id={bodyId}>{request.body}</div>
        <div className="actions">
          <button type="button" className="primary danger-action" onClick={() => close(true)}>
            {request.action}
          </button>
          <button type="button" onClick={cancel} data-autofocus>
            Cancel
          </button>
        </div>
      </div>
    </Dialog>
  );
  return { confirm, dialog };
}
