import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

/** Every setting the service validates at start-up (libs/config/src/environment.ts). */
const SETTINGS = [...read('libs/config/src/environment.ts').matchAll(/^ {2}([A-Z][A-Z0-9_]+)\??:/gm)].map((match) => match[1]);

/**
 * No Docker engine runs on these machines, so the images and compose are
 * checked by reading (issue 13): a supported Node LTS, an unprivileged user, a
 * health check, and every setting the service has given to both APIs.
 */
describe('deployment files', () => {
  it.each(['payins-api', 'b2b-api', 'dashboard'])(
    'docker/Dockerfile.%s builds on Node 24 (or 22), runs unprivileged and checks readiness',
    (api) => {
      const dockerfile = read(`docker/Dockerfile.${api}`);
      expect(dockerfile).toMatch(/^ARG NODE_VERSION=(22|24)$/m);
      const bases = [...dockerfile.matchAll(/^FROM (\S+)/gm)].map((match) => match[1]);
      expect(bases.length).toBeGreaterThanOrEqual(2);
      for (const base of bases) expect(base).toBe('node:${NODE_VERSION}-bookworm-slim');
      expect(dockerfile).toMatch(/^USER node$/m);
      expect(dockerfile).toMatch(/^HEALTHCHECK .*\/health/m);
      expect(dockerfile).toContain(`CMD ["node", "dist/apps/${api}/src/main.js"]`);
    },
  );

  it('gives both APIs in compose every setting of the service, and only real ones', () => {
    const compose = read('docker/compose.yaml');
    const block = compose.slice(compose.indexOf('x-api-environment:'), compose.indexOf('\nservices:'));
    const shared = [...block.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((match) => match[1]);
    // Per API, or meaningless in a container: its port (the image's), PUBLIC_BASE_URL (per service), DATA_DIR and MAIL_DIRECTORY (embedded default only).
    // The dashboard's own (its compose service has them): where it listens, the payins API it calls, and its credential.
    const perService = [
      'PAYINS_API_PORT',
      'B2B_API_PORT',
      'PUBLIC_BASE_URL',
      'DATA_DIR',
      'MAIL_DIRECTORY',
      'DASHBOARD_PORT',
      'PAYINS_API_URL',
      'DASHBOARD_API_KEY',
      'DASHBOARD_API_SECRET',
      'DASHBOARD_IDLE_MINUTES',
      'AUDIT_ANCHOR_URL',
      'AUDIT_ANCHOR_TOKEN',
      // The migration step's alone (contract §30): the APIs refuse it; and the development escape hatch, never in compose.
      'DATABASE_MIGRATION_URL',
      'PCS_ALLOW_OWNER_ROLE',
    ];
    expect(shared.filter((name) => !SETTINGS.includes(name))).toEqual([]);
    expect(SETTINGS.filter((name) => !shared.includes(name) && !perService.includes(name))).toEqual([]);
    expect(compose.match(/^ +PUBLIC_BASE_URL:/gm)).toHaveLength(2);
    expect(compose.match(/<<: \*api-environment/g)).toHaveLength(2);
  });

  it('restarts every compose service that fails (contract §17: a dead process is never the end of the service)', () => {
    const services = read('docker/compose.yaml').split('\nservices:\n')[1].split('\nvolumes:')[0];
    const blocks = services.split(/\n(?= {2}[a-z][\w-]*:\n)/);
    expect(blocks.map((block) => /^\s*([\w-]+):/.exec(block)?.[1])).toEqual([
      'postgres',
      'mailpit',
      'migrate',
      'payins-api',
      'b2b-api',
      'dashboard',
    ]);
    for (const block of blocks.filter((b) => !b.startsWith('  migrate:')))
      expect(block).toMatch(/^ {4}restart: (unless-stopped|always|on-failure)$/m);
  });

  it("migrates in a one-shot service that alone has the owner's URL, and takes every password from .env (contract §30)", () => {
    const compose = read('docker/compose.yaml');
    const services = compose
      .split('\nservices:\n')[1]
      .split('\nvolumes:')[0]
      .split(/\n(?= {2}[a-z][\w-]*:\n)/);
    const service = (name: string) => services.find((block) => block.startsWith(`  ${name}:`)) ?? '';
    expect(service('migrate')).toContain("command: ['node', 'dist/apps/ops/src/migrate.js']");
    expect(service('migrate')).toMatch(/^ {4}restart: 'no'$/m);
    expect(compose.match(/DATABASE_MIGRATION_URL:/g)).toHaveLength(1);
    expect(service('migrate')).toContain('DATABASE_MIGRATION_URL: postgres://payments:${PCS_OWNER_PASSWORD:?');
    for (const name of ['payins-api', 'b2b-api', 'dashboard'])
      expect([name, /migrate:\n {8}condition: service_completed_successfully/.test(service(name))]).toEqual([name, true]);
    // No password written in a compose file: each is a required variable of .env, listed in .env.example.
    for (const file of ['docker/compose.yaml', 'docker/compose.ha.yaml']) {
      const text = read(file);
      const urls = [...text.matchAll(/postgres:\/\/[^:\s]+:([^@\n]+)@/g)].map((m) => m[1]);
      expect(urls.length).toBeGreaterThan(0);
      for (const password of urls) expect([file, password]).toEqual([file, expect.stringMatching(/^\$\{[A-Z_]+:\?[^}]*\}$/)]);
      const assigned = [...text.matchAll(/^ +(\w*PASSWORD\w*): (.*)$/gm)];
      for (const [, name, value] of assigned)
        expect([file, name, value]).toEqual([file, name, expect.stringMatching(/^\$\{[A-Z_]+:\?[^}]*\}$/)]);
    }
    const example = read('.env.example');
    for (const name of ['PCS_OWNER_PASSWORD', 'PCS_RUNTIME_PASSWORD', 'PATRONI_SUPERUSER_PASSWORD', 'PATRONI_REPLICATION_PASSWORD'])
      expect([name, new RegExp(`^#? ?${name}=`, 'm').test(example)]).toEqual([name, true]);
  });

  it('lists every setting in .env.example', () => {
    const example = read('.env.example');
    expect(SETTINGS.filter((name) => name !== 'MAIL_DIRECTORY' && !new RegExp(`^#? ?${name}=`, 'm').test(example))).toEqual([]);
  });
});
