import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Client } from 'pg';
import { CONNECT_TIMEOUT_MS } from './database-unavailable';

/** Where the change feed listens: the database without a pooler in between (a LISTEN needs a session of its own). */
export const CHANGE_FEED_URL = Symbol('CHANGE_FEED_URL');

/** The channel the database's change triggers notify on (see the cache-invalidation migration). */
export const CHANGE_CHANNEL = 'pcs_changes';

type Listener = { onChange: (key: string) => void; onReset: () => void };

/**
 * What changed in the database, as PostgreSQL announces it: triggers on the
 * tables that processes keep in memory (credentials, merchants, their
 * configuration) send `pg_notify('pcs_changes', '<topic>:<key>')` in the
 * writing transaction, so every process and replica hears of a change when it
 * commits, whoever wrote it (an API, the admin command, plain SQL).
 *
 * One dedicated connection per process LISTENs. While it is not listening
 * (starting, lost, reconnecting) `listening` is false and caches read through
 * to the database; when it comes back every cache is emptied, since changes
 * may have been missed meanwhile.
 */
@Injectable()
export class ChangeFeed implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('ChangeFeed');
  private readonly listeners = new Map<string, Listener[]>();
  private client: Client | null = null;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;
  /** The pause before the next try to listen: 0.5 s, doubling to 5 s while the database stays away. */
  private pause = 500;
  listening = false;

  constructor(@Inject(CHANGE_FEED_URL) private readonly url: string) {}

  /** Hears `<topic>:<key>` changes; `onReset` empties what may have gone stale unheard. */
  subscribe(topic: string, onChange: (key: string) => void, onReset: () => void): void {
    this.listeners.set(topic, [...(this.listeners.get(topic) ?? []), { onChange, onReset }]);
  }

  async onModuleInit(): Promise<void> {
    await this.connect();
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.listening = false;
    await this.client?.end().catch(() => undefined);
    this.client = null;
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new Client({
      connectionString: this.url,
      application_name: 'pcs change feed',
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
    });
    const lost = (error?: Error) => {
      if (this.client !== client) return;
      this.client = null;
      this.listening = false;
      this.resetAll();
      void client.end().catch(() => undefined);
      if (this.closed) return;
      this.logger.warn(`change feed connection lost (${error?.message ?? 'closed'}); caches read through until it is back`);
      this.retryLater();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (message) => this.dispatch(message.payload ?? ''));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
    } catch (error) {
      void client.end().catch(() => undefined);
      if (this.closed) return;
      this.logger.warn(`change feed could not listen (${(error as Error).message}); retrying in ${this.pause} ms`);
      this.retryLater();
      return;
    }
    if (this.closed) return void client.end().catch(() => undefined);
    if (this.pause > 500) this.logger.log('change feed listening again');
    this.pause = 500;
    this.client = client;
    // Anything cached before now may have changed unheard.
    this.resetAll();
    this.listening = true;
  }

  private retryLater(): void {
    this.retry = setTimeout(() => void this.connect(), this.pause);
    this.pause = Math.min(this.pause * 2, 5_000);
  }

  private dispatch(payload: string): void {
    const colon = payload.indexOf(':');
    const topic = colon < 0 ? payload : payload.slice(0, colon);
    const key = colon < 0 ? '' : payload.slice(colon + 1);
    for (const listener of this.listeners.get(topic) ?? []) listener.onChange(key);
  }

  private resetAll(): void {
    for (const listeners of this.listeners.values()) for (const listener of listeners) listener.onReset();
  }
}

/**
 * Values read from the database, kept in memory until the change feed says
 * their key changed (or `ttlMs` passes, a safety net). A read that was under
 * way when any invalidation arrived is answered but not kept: it may hold
 * what the change replaced. Absent values (null) are never kept, nor what a
 * transaction read (see `get`).
 */
export class InvalidatedCache<V> {
  private readonly entries = new Map<string, { value: V; at: number }>();
  private generation = 0;

  constructor(
    private readonly feed: ChangeFeed,
    topic: string,
    private readonly options: { maxEntries: number; ttlMs: number },
  ) {
    feed.subscribe(
      topic,
      (key) => this.invalidate(key),
      () => this.clear(),
    );
  }

  /**
   * The kept value, or `load()`'s. Pass `keep: false` when the load reads
   * inside a transaction: what it sees may not be committed (the transaction's
   * own writes), so it is answered but not kept for others.
   */
  async get(key: string, load: () => Promise<V | null>, keep = true): Promise<V | null> {
    const hit = this.entries.get(key);
    if (hit && this.feed.listening && Date.now() - hit.at < this.options.ttlMs) return hit.value;
    const generation = this.generation;
    const value = await load();
    if (keep && value !== null && this.feed.listening && generation === this.generation) {
      if (this.entries.size >= this.options.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(key, { value, at: Date.now() });
    }
    return value;
  }

  /** Forgets the key (the change feed calls this; so do writers in this process once they commit). */
  invalidate(key: string): void {
    this.generation += 1;
    if (key === '*') this.entries.clear();
    else this.entries.delete(key);
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }
}
