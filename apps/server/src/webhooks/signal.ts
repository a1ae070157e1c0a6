// A wake-up for the webhook worker (docs/product/webhooks.md#delivery-and-retries): a transaction
// that wrote events calls `signalWebhookEvents` once it has committed (db/transaction.ts, afterCommit),
// and every worker this process runs (jobs/scheduler.ts starts one per app) dispatches and delivers
// at once instead of at its next tick. Nothing is lost without it: the scheduled job drains the same
// rows on every tick, in every process.

type Listener = () => void;

const listeners = new Set<Listener>();

/** Wakes the workers of this process; never throws. */
export function signalWebhookEvents(): void {
  for (const listener of listeners) {
    try {
      listener();
    } catch {
      // A listener that fails is a worker that will drain on its next tick.
    }
  }
}

/** Calls `listener` on every signal until the answer is called. */
export function onWebhookEvents(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
