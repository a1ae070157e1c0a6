// @ts-check
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

// The worker thread that owns the embedded database (see pglite-thread.ts, which also declares the
// messages): each message is one call on PGlite, answered with its result or its error. A
// transaction is PGlite's own: `begin` opens it and keeps it open (PGlite holds its transaction
// lock, so other statements wait as they would in-process) until `end` commits or rolls it back.
// Plain JavaScript: a worker starts without the TypeScript loader, in the server as in the tests.

/**
 * @typedef {import('./pglite-thread.ts').ThreadRequest} ThreadRequest
 * @typedef {import('./pglite-thread.ts').ThreadResponse} ThreadResponse
 * @typedef {import('./pglite-thread.ts').WireError} WireError
 * @typedef {import('./pglite-thread.ts').WireQueryOptions} WireQueryOptions
 * @typedef {import('./pglite-thread.ts').WorkerData} WorkerData
 * @typedef {import('@electric-sql/pglite').Transaction} Transaction
 * @typedef {{ tx: Transaction, end: (commit: boolean) => void, ended: Promise<void> }} OpenTransaction
 */

const port = parentPort;
if (!port) throw new Error('pglite-worker.js runs as a worker thread');
const { dataDir, template } = /** @type {WorkerData} */ (workerData);
const db = template ? new PGlite({ dataDir, loadDataDir: new Blob([template]) }) : new PGlite(dataDir);

/** Marks a rollback asked for by the caller (not a failure of the transaction's end). */
const ROLLBACK = Symbol('rollback');

/** @type {Map<number, OpenTransaction>} */
const transactions = new Map();

db.waitReady.catch((error) => post({ id: 0, ok: false, error: wireError(error) }));

port.on('message', (/** @type {ThreadRequest} */ request) => {
  run(request).then(
    (result) => post({ id: request.id, ok: true, result }),
    (error) => post({ id: request.id, ok: false, error: wireError(error) }),
  );
});

/** @param {ThreadRequest} request */
async function run(request) {
  switch (request.op) {
    case 'query':
      return target(request.tx).query(request.text, request.params, queryOptions(request.options));
    case 'exec':
      return target(request.tx).exec(request.text);
    case 'begin':
      return begin(request.id);
    case 'end': {
      const open = transactions.get(request.tx);
      if (!open) throw new Error(`No open transaction ${request.tx}`);
      transactions.delete(request.tx);
      open.end(request.commit);
      await open.ended;
      return null;
    }
    case 'dump': {
      const file = await db.dumpDataDir(request.compression);
      const name = file instanceof File ? file.name : 'pgdata.tar';
      return { name, type: file.type, bytes: new Uint8Array(await file.arrayBuffer()) };
    }
    case 'close':
      await db.close();
      return null;
  }
}

/**
 * The connection a statement runs on: the open transaction it names, else the database.
 * @param {number | undefined} tx
 */
function target(tx) {
  if (tx === undefined) return db;
  const open = transactions.get(tx);
  if (!open) throw new Error(`No open transaction ${tx}`);
  return open.tx;
}

/**
 * Opens a transaction and answers once PGlite has begun it; it stays open until `end`.
 * @param {number} id
 * @returns {Promise<number>}
 */
function begin(id) {
  return new Promise((begun, failed) => {
    const ended = db
      .transaction(
        (tx) =>
          new Promise((commit, rollback) => {
            const end = (/** @type {boolean} */ ok) => (ok ? commit(undefined) : rollback(ROLLBACK));
            transactions.set(id, { tx, end, ended });
            begun(id);
          }),
      )
      .then(
        () => undefined,
        (error) => {
          if (error !== ROLLBACK) throw error;
        },
      );
    // A transaction that could not begin fails its `begin`; one that began reports through `end`.
    ended.catch((error) => {
      if (!transactions.has(id)) failed(error);
    });
  });
}

/**
 * Drizzle's options: its identity parsers become "leave as text" again.
 * @param {WireQueryOptions | undefined} options
 */
function queryOptions(options) {
  if (!options) return undefined;
  const identity = (/** @type {string} */ value) => value;
  return {
    rowMode: options.rowMode,
    parsers: Object.fromEntries((options.rawTypes ?? []).map((oid) => [oid, identity])),
  };
}

/**
 * An error as data: its message, name and PostgreSQL fields (code, detail, constraint, …).
 * @param {unknown} error
 * @returns {WireError}
 */
function wireError(error) {
  if (!(error instanceof Error)) return { message: String(error), name: 'Error', fields: {} };
  /** @type {WireError['fields']} */
  const fields = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      fields[key] = value;
    }
  }
  return { message: error.message, name: error.name, fields };
}

/** @param {ThreadResponse} response */
function post(response) {
  port?.postMessage(response);
}
