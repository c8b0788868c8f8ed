import { Client, ClientConfig } from 'pg';

/**
 * How long a request waits for a new connection to the database before it is
 * answered 503 (contract §17: within 5 seconds, never a hang). A refused
 * connection fails at once; this bounds a server that does not answer.
 */
export const CONNECT_TIMEOUT_MS = 3000;

/** Socket errors of a server that is down, restarting, or out of reach. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server that is going away or not yet back: class 08
 * (connection exception), 57P01–57P03 (administrator or crash shutdown, cannot
 * connect now: starting up or in recovery), 53300 (too many connections), and
 * 25006 (a write reached a server in recovery: behind a proxy that routes to
 * the primary, the node answering is not the primary any more or not yet, as
 * when a leader is demoted or HAProxy starts and has not checked its servers;
 * our code writes only through the primary's URL, so a retry finds the primary).
 */
const SERVER_STATES = /^(08...|57P0[123]|53300|25006)$/;

/** What pg and pg-pool say when a connection broke or never came (they set no code). */
const DRIVER_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Connection terminated due to connection timeout',
];

/**
 * TypeORM's query runner of a transaction whose connection broke between two
 * statements: TypeORM releases it when the connection emits `error`, and the
 * transaction's next statement fails with one of these (measured when a
 * Patroni leader is killed under load, test/high-availability.e2e-spec.ts).
 * Our transactions release their runner only after their work ends, so the
 * only way to meet a released runner mid-work is a broken connection.
 */
const RELEASED_RUNNER = new Set(['QueryRunnerAlreadyReleasedError', 'QueryRunnerProviderAlreadyReleasedError']);

/**
 * True when an error means "the database cannot be reached now" rather than
 * "this request is wrong" or "our code is wrong": the request gets a 503 with
 * Retry-After (contract §17) instead of a 500. TypeORM wraps driver errors
 * (`driverError`); both are looked at. Meant for errors of database calls:
 * a socket error of another peer would read the same.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 3; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || SERVER_STATES.test(code))) return true;
    if (typeof message === 'string' && DRIVER_MESSAGES.some((text) => message.startsWith(text))) return true;
    if (RELEASED_RUNNER.has((current as { name?: unknown }).name as string)) return true;
    const errors = (current as { errors?: unknown }).errors; // AggregateError: every address refused
    if (Array.isArray(errors) && errors.length > 0 && errors.every((inner) => isDatabaseUnavailable(inner))) return true;
    // Not `cause`: an outside call's failure (fetch's cause ENOTFOUND) is not the database's.
    current = (current as { driverError?: unknown }).driverError;
  }
  return false;
}

/**
 * A pg client that never takes its process down: pg emits `error` on a client
 * whose connection breaks while no query is running on it, and pg-pool listens
 * only while the client is idle in the pool, so a client checked out (a
 * transaction between statements, a worker between fetches) would raise an
 * unhandled `error` event when the server restarts. The break is reported
 * once; the client is useless afterwards and the pool discards it when it is
 * released (pg-pool drops clients that are no longer queryable).
 */
export function resilientClientClass(onBroken: (error: Error) => void): typeof Client {
  return class ResilientClient extends Client {
    constructor(config?: string | ClientConfig) {
      super(config);
      let reported = false;
      this.on('error', (error: Error) => {
        if (reported) return;
        reported = true;
        onBroken(error);
      });
    }
  };
}
