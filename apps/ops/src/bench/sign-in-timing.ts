import 'reflect-metadata';
import { loadDotEnv, loadEnvironment } from '@pcs/config';
import { migrateDatabase } from '@pcs/database';
import { auditKeyOf, dashboardIdentityOn } from '@pcs/dashboard-identity';
import * as crypto from 'node:crypto';
import { DataSource } from 'typeorm';
import { freshDatabase } from './fresh-database';

const log = (line: string) => process.stderr.write(`[bench:sign-in] ${line}\n`);

/**
 * `npm run bench:sign-in`: does a wrong password for a person take as long as
 * any password for an email no one has (contract §30: sign-in tells
 * nothing)? BENCH_SIGN_INS rounds (40), each a person's and an unknown
 * email's wrong sign-in in alternating order, each from an address of its own
 * (the address throttle is not what is timed); the medians and 90th
 * percentiles printed, nothing asserted. A fresh database on DATABASE_URL's
 * server, or an embedded PostgreSQL.
 */
async function main(): Promise<void> {
  loadDotEnv();
  const env = loadEnvironment();
  const rounds = Math.max(4, Number(process.env.BENCH_SIGN_INS ?? 40));
  const { url, cleanup } = await freshDatabase(env.DATABASE_URL, log);
  try {
    await migrateDatabase(url, log);
    const dataSource = new DataSource({ type: 'postgres', url, poolSize: 4 });
    await dataSource.initialize();
    try {
      const identity = dashboardIdentityOn(dataSource, null, { auditKeys: [auditKeyOf(crypto.randomBytes(32))] });
      const businessId = crypto.randomUUID();
      const people: string[] = [];
      for (let i = 0; i < rounds; i++)
        people.push((await identity.createUser({ businessId, merchantId: null, email: `person${i}@example.uy`, role: 'viewer' })).email);
      const times: Record<'person' | 'unknown', number[]> = { person: [], unknown: [] };
      for (let i = 0; i < rounds; i++) {
        for (const kind of i % 2 ? (['person', 'unknown'] as const) : (['unknown', 'person'] as const)) {
          const email = kind === 'person' ? people[i] : `nobody${i}-${crypto.randomUUID().slice(0, 6)}@example.uy`;
          const started = process.hrtime.bigint();
          const result = await identity.signIn(email, 'a-wrong-guess-1', `192.0.2.${i % 250}-${kind}`, businessId);
          times[kind].push(Number(process.hrtime.bigint() - started) / 1e6);
          if (result.outcome !== 'refused') throw new Error(`a wrong sign-in answered ${result.outcome}`);
        }
      }
      const at = (values: number[], share: number) => [...values].sort((a, b) => a - b)[Math.floor(values.length * share)].toFixed(1);
      const line = (kind: 'person' | 'unknown') =>
        `${kind === 'person' ? 'a person, wrong password' : 'an unknown email'}: median ${at(times[kind], 0.5)} ms, p90 ${at(times[kind], 0.9)} ms`;
      process.stdout.write(`wrong sign-ins, ${rounds} of each\n  ${line('person')}\n  ${line('unknown')}\n`);
    } finally {
      await dataSource.destroy();
    }
  } finally {
    await cleanup();
  }
}

main().catch((error: unknown) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
