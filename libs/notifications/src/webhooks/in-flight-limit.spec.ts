import { InFlightLimit } from './in-flight-limit';

/** A task that runs until `release` is called, recording the most running at once per key. */
function gatedTasks(limit: InFlightLimit) {
  const releases: (() => void)[] = [];
  const most = new Map<string, number>();
  const started: string[] = [];
  const task = (key: string, name: string) =>
    limit.run(key, async () => {
      started.push(name);
      most.set(key, Math.max(most.get(key) ?? 0, limit.running(key)));
      await new Promise<void>((resolve) => releases.push(resolve));
      return name;
    });
  return { releases, most, started, task };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('InFlightLimit: at most N tasks of one key at once', () => {
  it('runs N of a key, starts the rest in arrival order as places free, and never holds back another key', async () => {
    const limit = new InFlightLimit(2);
    const { releases, most, started, task } = gatedTasks(limit);
    const results = [task('a', 'a1'), task('a', 'a2'), task('a', 'a3'), task('a', 'a4'), task('b', 'b1')];
    await tick();
    expect(started).toEqual(['a1', 'a2', 'b1']);
    releases.shift()!(); // a1 ends: a3 takes its place
    await tick();
    expect(started).toEqual(['a1', 'a2', 'b1', 'a3']);
    while (releases.length > 0) {
      releases.shift()!();
      await tick();
    }
    await expect(Promise.all(results)).resolves.toEqual(['a1', 'a2', 'a3', 'a4', 'b1']);
    expect(most.get('a')).toBe(2);
    expect(limit.running('a')).toBe(0);
  });

  it('frees the place of a task that throws', async () => {
    const limit = new InFlightLimit(1);
    const failed = limit.run('a', () => Promise.reject(new Error('refused')));
    const next = limit.run('a', () => Promise.resolve('next'));
    await expect(failed).rejects.toThrow('refused');
    await expect(next).resolves.toBe('next');
    expect(limit.running('a')).toBe(0);
  });

  it('refuses a limit that is not a positive integer', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => new InFlightLimit(bad)).toThrow('positive integer');
  });
});
