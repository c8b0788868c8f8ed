import { Supervised, Supervisor } from './supervisor';

/** A stand-in for a process: it "dies" when told to, and records whether it was stopped. */
class FakeProcess implements Supervised {
  stopped = false;
  private end!: (how: string) => void;
  readonly exited = new Promise<string>((resolve) => (this.end = resolve));
  die(how = 'code 1'): void {
    this.end(how);
  }
  stop(): Promise<void> {
    this.stopped = true;
    return Promise.resolve();
  }
}

const POLICY = { firstPauseMs: 20, maxPauseMs: 80, healthyAfterMs: 10_000 };
const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe('Supervisor (npm start keeps each process running)', () => {
  it('restarts what dies with a pause that doubles up to the maximum, one line a restart', async () => {
    const started: FakeProcess[] = [];
    const lines: string[] = [];
    const at: number[] = [];
    const supervisor = new Supervisor(
      'payins-api',
      () => {
        at.push(Date.now());
        const process = new FakeProcess();
        started.push(process);
        return Promise.resolve(process);
      },
      (line) => lines.push(line),
      POLICY,
    );
    await supervisor.run();
    for (let n = 1; n <= 4; n++) {
      started[n - 1].die(`code ${n}`);
      await until(() => started.length > n);
    }
    expect(started).toHaveLength(5);
    const pauses = at.slice(1).map((t, i) => t - at[i]);
    // 20, 40, 80, 80 ms (timers may run late, never early)
    [20, 40, 80, 80].forEach((pause, i) => expect(pauses[i]).toBeGreaterThanOrEqual(pause - 2));
    expect(lines.filter((line) => line.startsWith('payins-api exited'))).toEqual([
      'payins-api exited (code 1); restarting it in 0.02 s',
      'payins-api exited (code 2); restarting it in 0.04 s',
      'payins-api exited (code 3); restarting it in 0.08 s',
      'payins-api exited (code 4); restarting it in 0.08 s',
    ]);
    await supervisor.stop();
    expect(started[4].stopped).toBe(true);
  });

  it('keeps trying when a restart fails, and restarts nothing once stopped', async () => {
    let calls = 0;
    const first = new FakeProcess();
    const lines: string[] = [];
    const supervisor = new Supervisor(
      'the embedded PostgreSQL',
      () => {
        calls++;
        if (calls === 1) return Promise.resolve(first);
        if (calls < 4) return Promise.reject(new Error('port in use'));
        return Promise.resolve(new FakeProcess());
      },
      (line) => lines.push(line),
      POLICY,
    );
    await supervisor.run();
    first.die('SIGKILL');
    await until(() => lines.includes('the embedded PostgreSQL restarted'));
    expect(calls).toBe(4);
    expect(lines).toContain('the embedded PostgreSQL did not start (port in use); trying again in 0.04 s');

    const stopping = new Supervisor(
      'b2b-api',
      () => Promise.resolve(new FakeProcess()),
      () => undefined,
      POLICY,
    );
    const startedBy = jest.fn(() => Promise.resolve(new FakeProcess()));
    const watched = new Supervisor('b2b-api', startedBy, () => undefined, POLICY);
    await Promise.all([stopping.run(), watched.run()]);
    await watched.stop();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(startedBy).toHaveBeenCalledTimes(1);
    await Promise.all([stopping.stop(), supervisor.stop()]);
  });
});
