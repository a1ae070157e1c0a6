/** A polite live region, present before anything is announced so screen readers pick up the change. */
export function CopyStatus({ message }: { message: string | null }) {
  return (
    <div className="copy-status" role="status" aria-live="polite">
      {message ? <p className="form-success copy-status__message">{message}</p> : null}
    </div>
  );
}
