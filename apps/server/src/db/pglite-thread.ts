import { Worker } from 'node:worker_threads';
import type { QueryOptions, Results, Transaction } from '@electric-sql/pglite';

// The embedded database on its own thread. PGlite is PostgreSQL compiled to WebAssembly: every
// statement runs on the thread that owns it, so in the server's own thread each commit stopped
// every request for its whole duration. A worker thread owns it instead (pglite-worker.js); this
// side answers the part of PGlite's interface the server uses — `query`, `exec`, `transaction`,
// `close`, `dumpDataDir` — by messages, with the same meaning: one connection, statements run one
// after the other, a transaction holds the connection until it ends (other statements wait for it,
// inside the worker, as inside PGlite). Results and errors cross as plain data (structured clone):
// rows keep their parsed values (dates, numbers, JSON), errors their message and PostgreSQL fields.

/** What the worker is asked. `tx`: the transaction the statement belongs to (its `begin`'s id). */
export type ThreadRequest =
  | { id: number; op: 'query'; text: string; params?: unknown[]; options?: WireQueryOptions; tx?: number }
  | { id: number; op: 'exec'; text: string; tx?: number }
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'dump'; compression?: 'auto' | 'gzip' | 'none' }
  | { id: number; op: 'close' };

export type ThreadResponse =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: WireError }
  /** The worker's PGlite failed to start. */
  | { id: 0; ok: false; error: WireError };

/** Query options as data: parsers are functions, so only "leave these types as text" can cross. */
export interface WireQueryOptions {
  rowMode?: 'array' | 'object';
  /** Type OIDs answered as PostgreSQL's text (the identity parsers Drizzle passes). */
  rawTypes?: number[];
}

/** An error's message, name and PostgreSQL fields (code, detail, constraint, …). */
export interface WireError {
  message: string;
  name: string;
  fields: Record<string, string | number | boolean | null>;
}

export interface WorkerData {
  dataDir: string;
  /** A data folder (an uncompressed tar of one) to start the database from: see DatabaseOptions. */
  template?: Uint8Array | undefined;
}

interface Call {
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** A PGlite owned by a worker thread, through the part of its interface the server uses. */
export class PGliteThread {
  readonly #worker: Worker;
  readonly #calls = new Map<number, Call>();
  #nextId = 1;
  #failure: Error | undefined;

  constructor(dataDir: string, template?: Uint8Array) {
    const workerData: WorkerData = { dataDir, template };
    this.#worker = new Worker(new URL('./pglite-worker.js', import.meta.url), {
      workerData,
      // Plain JavaScript: no loader to start. A CPU profile of the server profiles this thread too.
      execArgv: process.execArgv.filter((arg) => arg.startsWith('--cpu-prof')),
    });
    this.#worker.on('message', (message: ThreadResponse) => this.#answer(message));
    this.#worker.on('error', (error) => this.#fail(error));
    this.#worker.on('exit', (code) => this.#fail(new Error(`The embedded database's thread exited (${code}).`)));
    // Like the in-process PGlite, an idle database does not keep the process alive (a script ends
    // when its work is done); a call under way does.
    this.#worker.unref();
  }

  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.#call({ op: 'query', text, params, options: wireOptions(options) }) as Promise<Results<T>>;
  }

  exec(text: string): Promise<Results[]> {
    return this.#call({ op: 'exec', text }) as Promise<Results[]>;
  }

  /** Runs `fn` in one transaction: commits when it returns, rolls back when it throws. */
  async transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    const id = (await this.#call({ op: 'begin' })) as number;
    let closed = false;
    const tx: Transaction = {
      query: <R>(text: string, params?: unknown[], options?: QueryOptions) =>
        this.#call({ op: 'query', text, params, options: wireOptions(options), tx: id }) as Promise<Results<R>>,
      exec: (text: string) => this.#call({ op: 'exec', text, tx: id }) as Promise<Results[]>,
      sql: () => Promise.reject(new Error('tx.sql is not available on the database thread')),
      listen: () => Promise.reject(new Error('tx.listen is not available on the database thread')),
      rollback: () => Promise.reject(new Error('throw from the transaction to roll it back')),
      get closed() {
        return closed;
      },
    };
    let result: T;
    try {
      result = await fn(tx);
    } catch (error) {
      closed = true;
      await this.#call({ op: 'end', tx: id, commit: false });
      throw error;
    }
    closed = true;
    await this.#call({ op: 'end', tx: id, commit: true });
    return result;
  }

  /** The data folder as a tarball (PGlite's `dumpDataDir`), taken between statements. */
  async dumpDataDir(compression?: 'auto' | 'gzip' | 'none'): Promise<File> {
    const { name, type, bytes } = (await this.#call({ op: 'dump', compression })) as {
      name: string;
      type: string;
      bytes: Uint8Array<ArrayBuffer>;
    };
    return new File([bytes], name, { type });
  }

  async close(): Promise<void> {
    if (this.#failure) return;
    await this.#call({ op: 'close' });
    await this.#worker.terminate();
  }

  #call(request: DistributiveOmit<ThreadRequest, 'id'>): Promise<unknown> {
    if (this.#failure) return Promise.reject(this.#failure);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#calls.set(id, { resolve, reject });
      if (this.#calls.size === 1) this.#worker.ref();
      this.#worker.postMessage({ ...request, id });
    });
  }

  #answer(message: ThreadResponse) {
    if (message.id === 0 && !message.ok) {
      this.#fail(toError(message.error, 'The embedded database did not start'));
      return;
    }
    const call = this.#calls.get(message.id);
    if (!call) return;
    this.#calls.delete(message.id);
    if (this.#calls.size === 0) this.#worker.unref();
    if (message.ok) call.resolve(message.result);
    else call.reject(toError(message.error));
  }

  #fail(error: unknown) {
    if (this.#failure) return;
    this.#failure = error instanceof Error ? error : new Error(String(error));
    for (const call of this.#calls.values()) call.reject(this.#failure);
    this.#calls.clear();
    this.#worker.unref();
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Drizzle passes identity parsers for the types it parses itself: those types stay text. */
function wireOptions(options: QueryOptions | undefined): WireQueryOptions | undefined {
  if (!options) return undefined;
  const { rowMode, parsers, ...rest } = options;
  if (Object.keys(rest).some((key) => rest[key as keyof typeof rest] !== undefined)) {
    throw new Error(`Query options ${Object.keys(rest).join(', ')} cannot reach the database thread`);
  }
  const rawTypes = Object.entries(parsers ?? {}).map(([oid, parse]) => {
    if (parse('0', Number(oid)) !== '0')
      throw new Error(`Only identity parsers can reach the database thread (${oid})`);
    return Number(oid);
  });
  return { rowMode, rawTypes };
}

/** The error the worker reported, thrown here with this thread's stack (where the call was made). */
function toError(wire: WireError, prefix?: string): Error {
  const error = new Error(prefix ? `${prefix}: ${wire.message}` : wire.message);
  Object.assign(error, wire.fields);
  error.name = wire.name;
  return error;
}
