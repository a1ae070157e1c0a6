import { type ReactNode, useEffect, useRef } from 'react';

// Parts every form of the site repeats: the message that takes the focus when a check fails, and
// the submit button with its busy label.

/**
 * A form's one error message (role="alert"), focused whenever `focusKey` changes (a new check) so
 * that it is read at once; the fields it is about point at its `id` (lib/form-errors `fieldAria`).
 */
export function ErrorBanner({ id, focusKey, children }: { id?: string; focusKey: unknown; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (focusKey) ref.current?.focus();
  }, [focusKey]);
  return (
    <div id={id} ref={ref} className="form-error" role="alert" tabIndex={-1}>
      {children}
    </div>
  );
}

export interface SubmitActionsProps {
  label: string;
  busyLabel: string;
  busy: boolean;
  /** Disabled beyond `busy` (e.g. until the form is hydrated). */
  disabled?: boolean;
  /** Extra classes of the actions row. */
  className?: string;
  /** More actions after the submit button. */
  children?: ReactNode;
}

/** The actions row: the primary submit button, with its busy label while the form is sent. */
export function SubmitActions({ label, busyLabel, busy, disabled = false, className, children }: SubmitActionsProps) {
  return (
    <div className={className ? `form-actions ${className}` : 'form-actions'}>
      <button type="submit" className="button button--primary" disabled={busy || disabled}>
        {busy ? busyLabel : label}
      </button>
      {children}
    </div>
  );
}
