import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { openEmbeddedPostgres } from './embedded-postgres';

const runningAsRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const modeOf = (dir: string) => fs.statSync(dir).mode & 0o7777;

/** The embedded server `npm start` runs when no DATABASE_URL is set (issue 13, item 7). */
describe('the embedded PostgreSQL', () => {
  const made: string[] = [];
  const folder = (mode: number) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pcs-embedded-'));
    fs.chmodSync(dir, mode);
    made.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('runs from binaries copied into DATA_DIR (library symlinks made there), and a second start reuses them', async () => {
    const dataDir = path.join(folder(0o755), 'data');
    const lines: string[] = [];
    const first = await openEmbeddedPostgres(dataDir, (line) => lines.push(line));
    try {
      const client = new Client({ connectionString: first.url });
      await client.connect();
      expect((await client.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      await client.end();
    } finally {
      await first.stop();
    }
    const [copy] = fs.readdirSync(dataDir).filter((name) => name.startsWith('postgres-'));
    expect(fs.existsSync(path.join(dataDir, copy, 'bin', 'postgres'))).toBe(true);
    // The links the package's install script would have made (npm 11 may not run it): made in the copy.
    const links = fs
      .readdirSync(path.join(dataDir, copy, 'lib'))
      .filter((name) => fs.lstatSync(path.join(dataDir, copy, 'lib', name)).isSymbolicLink());
    expect(links).toContain('libpq.so.5');
    expect(lines.some((line) => line.startsWith('copying'))).toBe(true);

    const again: string[] = [];
    const second = await openEmbeddedPostgres(dataDir, (line) => again.push(line));
    await second.stop();
    expect(again.some((line) => line.startsWith('copying') || line.startsWith('initialising'))).toBe(false);
  }, 120_000);

  it('changes no permission outside DATA_DIR: under root, a DATA_DIR the postgres OS user cannot reach stops start-up with what to do', async () => {
    const closed = folder(0o700);
    const dataDir = path.join(closed, 'data');
    const before = [closed, os.tmpdir()].map(modeOf);
    if (runningAsRoot) {
      await expect(openEmbeddedPostgres(dataDir)).rejects.toThrow(
        new RegExp(`postgres.*cannot reach ${dataDir}: ${closed} is not searchable by it.*DATA_DIR.*DATABASE_URL`),
      );
    } else {
      // Not root: the server runs as this very user, who reaches its own folder.
      const database = await openEmbeddedPostgres(dataDir);
      await database.stop();
    }
    expect([closed, os.tmpdir()].map(modeOf)).toEqual(before);
  }, 120_000);
});
