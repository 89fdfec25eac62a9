import type { ReactNode } from 'react';

/** A form's error, when it has one: an alert, read out as it appears. */
export function ErrorText({ error }: { error: string }) {
  return error ? (
    <p className="error" role="alert">
      {error}
    </p>
  ) : null;
}

/**
 * The end of a form that is filled in and then sent or left (a dialog, an edit in place): its
 * error, then its submit button (`submit`: the button's text) and Cancel.
 */
export function FormActions(props: { submit: ReactNode; onCancel(): void; error?: string }) {
  return (
    <>
      <ErrorText error={props.error ?? ''} />
      <div className="actions">
        <button type="submit" className="primary">
          {props.submit}
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </>
  );
}
