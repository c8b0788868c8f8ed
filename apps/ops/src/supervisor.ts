import { ChildProcess, spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';

/** Something a supervisor keeps running: it settles `exited` with how it ended when it ends by itself. */
export interface Supervised {
  readonly exited: Promise<string>;
  stop(): Promise<void>;
}

export interface RestartPolicy {
  /** The pause before the first restart; it doubles with each restart in a row. */
  readonly firstPauseMs: number;
  readonly maxPauseMs: number;
  /** An instance that ran this long was healthy: the next restart starts from the first pause again. */
  readonly healthyAfterMs: number;
}

/** 1 s, 2 s, 4 s … 30 s (contract §17). */
export const DEFAULT_RESTART_POLICY: RestartPolicy = { firstPauseMs: 1_000, maxPauseMs: 30_000, healthyAfterMs: 60_000 };

/**
 * Keeps one thing running under `npm start` (an API process, the embedded
 * PostgreSQL): when it ends by itself, it is started again after a pause that
 * grows while restarts keep failing, each restart logged in one line. Only
 * `stop()` ends it for good.
 */
export class Supervisor {
  private current: Supervised | null = null;
  private stopping = false;
  private pause: number;
  /** A restart under way (its pause or its start), which `stop()` waits for. */
  private restarting: Promise<void> | null = null;
  private readonly stopped = new AbortController();

  constructor(
    private readonly name: string,
    private readonly start: () => Promise<Supervised>,
    private readonly log: (line: string) => void,
    private readonly policy: RestartPolicy = DEFAULT_RESTART_POLICY,
  ) {
    this.pause = policy.firstPauseMs;
  }

  /** Starts the first instance (a failure here is the caller's: nothing is running yet). */
  async run(): Promise<void> {
    this.watch(await this.start());
  }

  /** Ends it for good: the running instance is stopped and nothing is restarted. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.stopped.abort();
    await this.restarting;
    // An instance's `exited` settles only when it ends by itself: stopping it is awaited, not watched.
    await this.current?.stop();
  }

  private watch(instance: Supervised): void {
    this.current = instance;
    const startedAt = Date.now();
    void instance.exited.then((how) => {
      if (this.stopping || this.current !== instance) return;
      this.current = null;
      if (Date.now() - startedAt >= this.policy.healthyAfterMs) this.pause = this.policy.firstPauseMs;
      this.restarting = this.restart(how).finally(() => (this.restarting = null));
    });
  }

  private async restart(how: string): Promise<void> {
    for (let attempt = 1; !this.stopping; attempt++) {
      const pause = this.pause;
      this.pause = Math.min(this.pause * 2, this.policy.maxPauseMs);
      this.log(
        attempt === 1
          ? `${this.name} exited (${how}); restarting it in ${pause / 1000} s`
          : `${this.name} did not start (${how}); trying again in ${pause / 1000} s`,
      );
      const slept = await sleep(pause, true, { signal: this.stopped.signal }).catch(() => false);
      if (!slept || this.stopping) return;
      try {
        this.watch(await this.start());
        this.log(`${this.name} restarted`);
        return;
      } catch (error) {
        how = error instanceof Error ? error.message : String(error);
      }
    }
  }
}

/** A Node program as a supervised child process sharing the launcher's terminal. */
export function nodeProcess(main: string, env: NodeJS.ProcessEnv): Promise<Supervised> {
  const child: ChildProcess = spawn(process.execPath, [main], { env, stdio: 'inherit' });
  const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? `code ${code}`)));
  return Promise.resolve({
    exited,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  });
}
