import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { stopChild } from './api-process';
import { freePort } from './payins-app';

/** The programs a Patroni cluster on this machine needs (Debian: patroni, etcd-server, haproxy, postgresql-15). */
export interface HaTools {
  readonly patroni: string;
  readonly etcd: string;
  readonly haproxy: string;
  /** PostgreSQL's server binaries with pg_basebackup and pg_rewind, which the embedded package does not ship. */
  readonly pgBin: string;
}

function onPath(program: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).concat(['/usr/sbin', '/usr/bin'])) {
    const candidate = path.join(dir, program);
    if (dir && fs.existsSync(candidate)) return candidate;
  }
  return null;
}

/** PG_BIN_DIR, or the newest /usr/lib/postgresql/<version>/bin that has what Patroni runs. */
function postgresBin(): string | null {
  const wanted = ['postgres', 'pg_ctl', 'initdb', 'pg_basebackup', 'pg_rewind', 'pg_controldata'];
  const candidates = process.env.PG_BIN_DIR
    ? [process.env.PG_BIN_DIR]
    : fs.existsSync('/usr/lib/postgresql')
      ? fs
          .readdirSync('/usr/lib/postgresql')
          .sort((a, b) => Number(b) - Number(a))
          .map((version) => path.join('/usr/lib/postgresql', version, 'bin'))
      : [];
  return candidates.find((dir) => wanted.every((program) => fs.existsSync(path.join(dir, program)))) ?? null;
}

/** The tools, or the names of those missing. */
export function haTools(): HaTools | { missing: string[] } {
  const found = { patroni: onPath('patroni'), etcd: onPath('etcd'), haproxy: onPath('haproxy'), pgBin: postgresBin() };
  const missing = Object.entries(found)
    .filter(([, where]) => where === null)
    .map(([name]) => (name === 'pgBin' ? 'PostgreSQL server binaries (postgresql-15)' : name));
  return missing.length ? { missing } : (found as HaTools);
}

/** PostgreSQL refuses root: under root, the nodes run as the `postgres` OS user (Debian's postgresql package creates it). */
function serverUser(): { uid: number; gid: number } | null {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return null;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** A process of the cluster, its output kept for a failure's message. */
class Daemon {
  output = '';
  private readonly child: ChildProcess;

  constructor(
    readonly name: string,
    command: string,
    args: string[],
    options: { env?: NodeJS.ProcessEnv; user?: { uid: number; gid: number } | null; cwd?: string } = {},
  ) {
    this.child = spawn(command, args, {
      env: options.env ?? process.env,
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(options.user ? { uid: options.user.uid, gid: options.user.gid } : {}),
    });
    const keep = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString()).slice(-20_000);
    };
    this.child.stdout!.on('data', keep);
    this.child.stderr!.on('data', keep);
    // A program that cannot be started (gone, not executable) is a failure this test reports, not a crash of its worker.
    this.child.on('error', (error) => {
      this.failed = true;
      this.output += `\n${name} could not run: ${error.message}`;
    });
  }

  private failed = false;

  get running(): boolean {
    return !this.failed && this.child.exitCode === null && this.child.signalCode === null;
  }

  kill(signal: NodeJS.Signals): void {
    if (this.running) this.child.kill(signal);
  }

  async stop(): Promise<void> {
    if (this.running) await stopChild(this.child, 15_000);
  }
}

export interface PatroniMember {
  readonly name: string;
  readonly role: string;
  readonly state: string;
  readonly port: number;
  readonly timeline?: number;
  readonly lag?: number | string;
}

interface NodePorts {
  readonly name: string;
  readonly rest: number;
  readonly postgres: number;
}

const SCOPE = 'pcs';

/**
 * A Patroni cluster on this machine, as docs/operations.md deploys it: one
 * etcd, PostgreSQL nodes under Patroni with synchronous replication, and
 * HAProxy in front checking Patroni's REST API (a read-write port to the
 * leader, a read-only port to the replicas). Timings are short so that a
 * test sees a failover in seconds: the leader key lives 10 s (docs/operations.md
 * gives the production values).
 */
export class PatroniCluster {
  readonly nodes: NodePorts[] = [];
  readwritePort = 0;
  readonlyPort = 0;
  private statsPort = 0;
  private etcdPort = 0;
  private etcd!: Daemon;
  private haproxy!: Daemon;
  private readonly patroni = new Map<string, Daemon>();
  private readonly user = serverUser();

  constructor(
    private readonly tools: HaTools,
    readonly dir: string,
    private readonly size = 2,
  ) {}

  static async start(tools: HaTools, size = 2): Promise<PatroniCluster> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pcs-patroni-'));
    fs.chmodSync(dir, 0o755);
    const cluster = new PatroniCluster(tools, dir, size);
    try {
      await cluster.boot();
    } catch (error) {
      const logs = cluster.logs();
      await cluster.stop();
      throw new Error(`the Patroni cluster did not start: ${(error as Error).message}\n${logs}`, { cause: error });
    }
    return cluster;
  }

  /** Where the API connects: the read-write port (the leader) and the read-only port (the replicas). */
  url(database: string, readonly = false): string {
    return `postgres://postgres@127.0.0.1:${readonly ? this.readonlyPort : this.readwritePort}/${database}`;
  }

  /** A node's PostgreSQL, directly (not through HAProxy). */
  nodeUrl(name: string, database: string): string {
    return `postgres://postgres@127.0.0.1:${this.node(name).postgres}/${database}`;
  }

  private node(name: string): NodePorts {
    const found = this.nodes.find((node) => node.name === name);
    if (!found) throw new Error(`no node ${name}`);
    return found;
  }

  private async boot(): Promise<void> {
    this.etcdPort = await freePort();
    const etcdPeer = await freePort();
    fs.mkdirSync(path.join(this.dir, 'etcd'), { mode: 0o700 });
    this.etcd = new Daemon('etcd', this.tools.etcd, [
      '--name=etcd1',
      `--data-dir=${path.join(this.dir, 'etcd', 'data')}`,
      `--listen-client-urls=http://127.0.0.1:${this.etcdPort}`,
      `--advertise-client-urls=http://127.0.0.1:${this.etcdPort}`,
      `--listen-peer-urls=http://127.0.0.1:${etcdPeer}`,
      `--initial-advertise-peer-urls=http://127.0.0.1:${etcdPeer}`,
      `--initial-cluster=etcd1=http://127.0.0.1:${etcdPeer}`,
      '--log-level=warn',
    ]);
    await this.until('etcd answers', 30_000, async () => (await this.get(`http://127.0.0.1:${this.etcdPort}/health`))?.health === 'true');

    for (let i = 1; i <= this.size; i++) this.nodes.push({ name: `node${i}`, rest: await freePort(), postgres: await freePort() });
    for (const node of this.nodes) this.writeNodeConfig(node);
    // Every node starts at once: the first to take the leader key runs initdb, the others copy it (pg_basebackup).
    for (const node of this.nodes) this.startNode(node.name);
    await this.until('a leader and a synchronous standby streaming', 90_000, async () => {
      const members = await this.members();
      return (
        members.length === this.size &&
        members.some((member) => member.role === 'leader' && member.state === 'running') &&
        members.some((member) => member.role === 'sync_standby' && ['running', 'streaming'].includes(member.state))
      );
    });

    this.readwritePort = await freePort();
    this.readonlyPort = await freePort();
    this.statsPort = await freePort();
    fs.writeFileSync(path.join(this.dir, 'haproxy.cfg'), haproxyConfig(this.readwritePort, this.readonlyPort, this.statsPort, this.nodes));
    this.haproxy = new Daemon('haproxy', this.tools.haproxy, ['-db', '-f', path.join(this.dir, 'haproxy.cfg')]);
    // HAProxy 2.6 starts every server UP and marks it down only once its checks fail: until then the
    // read-write port also reaches the standby. Ready means HAProxy's own view is Patroni's.
    await this.until("HAProxy's checks agree with Patroni", 30_000, async () => {
      const leader = await this.leader();
      const states = await this.haproxyStates();
      return (
        leader !== null &&
        this.nodes.every(
          (node) =>
            states.get(`primary/${node.name}`) === (node.name === leader ? 'UP' : 'DOWN') &&
            states.get(`replicas/${node.name}`) === (node.name === leader ? 'DOWN' : 'UP'),
        )
      );
    });
  }

  /** HAProxy's state of each server ("primary/node1" → "UP"), from its status page's CSV. */
  async haproxyStates(): Promise<Map<string, string>> {
    const states = new Map<string, string>();
    const response = await fetch(`http://127.0.0.1:${this.statsPort}/;csv`, { signal: AbortSignal.timeout(2_000) });
    const [header, ...rows] = (await response.text()).trim().split('\n');
    const columns = header.replace(/^# /, '').split(',');
    const status = columns.indexOf('status');
    for (const row of rows) {
      const fields = row.split(',');
      if (!['FRONTEND', 'BACKEND'].includes(fields[1])) states.set(`${fields[0]}/${fields[1]}`, fields[status]);
    }
    return states;
  }

  private writeNodeConfig(node: NodePorts): void {
    const home = path.join(this.dir, node.name);
    fs.mkdirSync(home, { mode: 0o700 });
    if (this.user) fs.chownSync(home, this.user.uid, this.user.gid);
    fs.writeFileSync(
      path.join(this.dir, `${node.name}.yml`),
      patroniConfig({ node, home, etcdPort: this.etcdPort, pgBin: this.tools.pgBin, dcs: TEST_DCS }),
      { mode: 0o644 },
    );
  }

  /** Starts (or starts again) a node's Patroni, which starts its PostgreSQL. */
  startNode(name: string): void {
    const node = this.node(name);
    this.patroni.set(
      name,
      new Daemon(`patroni ${name}`, this.tools.patroni, [path.join(this.dir, `${name}.yml`)], {
        user: this.user,
        cwd: path.join(this.dir, name),
        env: { PATH: process.env.PATH, HOME: path.join(this.dir, node.name), LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' },
      }),
    );
  }

  /** The members as Patroni's REST API lists them (asked of any node that answers). */
  async members(): Promise<PatroniMember[]> {
    for (const node of this.nodes) {
      const cluster = await this.get(`http://127.0.0.1:${node.rest}/cluster`);
      if (cluster?.members) return cluster.members as PatroniMember[];
    }
    return [];
  }

  async leader(): Promise<string | null> {
    return (await this.members()).find((member) => member.role === 'leader' && member.state === 'running')?.name ?? null;
  }

  /**
   * The node's machine is lost: its Patroni and its PostgreSQL (the postmaster
   * and every backend) die by SIGKILL at once, nothing shut down cleanly.
   */
  killNode(name: string): void {
    const pidFile = path.join(this.dir, name, 'data', 'postmaster.pid');
    const postmaster = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
    this.patroni.get(name)!.kill('SIGKILL');
    process.kill(postmaster, 'SIGKILL');
    // The backends follow their postmaster's death on their own; the test kills them as the lost machine would.
    try {
      execFileSync('pkill', ['-KILL', '-P', String(postmaster)]);
    } catch {
      // none left
    }
  }

  /** Waits for `check` to hold, polling; throws with `what` after `ms`. */
  async until(what: string, ms: number, check: () => Promise<boolean>): Promise<number> {
    const started = Date.now();
    while (Date.now() - started < ms) {
      if (await check().catch(() => false)) return Date.now() - started;
      await sleep(250);
    }
    throw new Error(`waited ${ms} ms for ${what}`);
  }

  private async get(url: string): Promise<Record<string, unknown> | null> {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      return (await response.json()) as Record<string, unknown>;
    } catch {
      return null;
    }
  }

  logs(): string {
    const daemons = [this.etcd, this.haproxy, ...this.patroni.values()].filter(Boolean);
    return daemons.map((daemon) => `--- ${daemon.name}\n${daemon.output.slice(-3_000)}`).join('\n');
  }

  async stop(): Promise<void> {
    await this.haproxy?.stop();
    await Promise.all([...this.patroni.values()].map((daemon) => daemon.stop()));
    await this.etcd?.stop();
    // A node killed with its Patroni leaves its PostgreSQL to nobody: make sure no server of this cluster survives the test.
    for (const node of this.nodes) {
      try {
        const postmaster = Number(fs.readFileSync(path.join(this.dir, node.name, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
        process.kill(postmaster, 'SIGKILL');
      } catch {
        // stopped
      }
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The cluster-wide settings Patroni keeps in etcd: a short leader key for a test, synchronous replication. */
const TEST_DCS = { ttl: 10, loopWait: 1, retryTimeout: 3 };

function patroniConfig(options: {
  node: NodePorts;
  home: string;
  etcdPort: number;
  pgBin: string;
  dcs: { ttl: number; loopWait: number; retryTimeout: number };
}): string {
  const { node, home, etcdPort, pgBin, dcs } = options;
  return `scope: ${SCOPE}
namespace: /service/
name: ${node.name}
log:
  level: WARNING
restapi:
  listen: 127.0.0.1:${node.rest}
  connect_address: 127.0.0.1:${node.rest}
etcd3:
  hosts: 127.0.0.1:${etcdPort}
bootstrap:
  dcs:
    ttl: ${dcs.ttl}
    loop_wait: ${dcs.loopWait}
    retry_timeout: ${dcs.retryTimeout}
    maximum_lag_on_failover: 1048576
    synchronous_mode: true
    postgresql:
      use_pg_rewind: true
      parameters:
        wal_level: replica
        hot_standby: 'on'
        wal_log_hints: 'on'
        max_wal_senders: 10
        max_replication_slots: 10
        max_connections: 200
        synchronous_commit: 'on'
  initdb:
    - encoding: UTF8
    - locale: C.UTF-8
    - auth-local: trust
    - auth-host: trust
  pg_hba:
    - local all all trust
    - host replication replicator 127.0.0.1/32 trust
    - host all all 127.0.0.1/32 trust
postgresql:
  listen: 127.0.0.1:${node.postgres}
  connect_address: 127.0.0.1:${node.postgres}
  data_dir: ${path.join(home, 'data')}
  bin_dir: ${pgBin}
  pgpass: ${path.join(home, 'pgpass')}
  authentication:
    replication:
      username: replicator
      password: replicator
    superuser:
      username: postgres
      password: postgres
    rewind:
      username: postgres
      password: postgres
  parameters:
    unix_socket_directories: ${home}
`;
}

function haproxyConfig(readwrite: number, readonly: number, stats: number, nodes: NodePorts[]): string {
  const servers = nodes.map((node) => `    server ${node.name} 127.0.0.1:${node.postgres} check port ${node.rest}`).join('\n');
  return `global
    maxconn 1000
defaults
    mode tcp
    timeout connect 2s
    timeout client 30m
    timeout server 30m
    timeout check 1s
listen primary
    bind 127.0.0.1:${readwrite}
    option httpchk GET /primary
    http-check expect status 200
    default-server inter 500ms fall 2 rise 1 on-marked-down shutdown-sessions
${servers}
listen replicas
    bind 127.0.0.1:${readonly}
    balance roundrobin
    option httpchk GET /replica
    http-check expect status 200
    default-server inter 500ms fall 2 rise 1 on-marked-down shutdown-sessions
${servers}
listen stats
    mode http
    bind 127.0.0.1:${stats}
    stats enable
    stats uri /
`;
}
