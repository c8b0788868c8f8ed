import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { AuditBroken, COMMANDS as IDENTITY_COMMANDS, dashboard, Options, UsageError } from './admin-commands';
import { loadDotEnv } from '@pcs/config';
import { AUDIT_HEAD_FILE } from '@pcs/dashboard-identity';
import type { INestApplicationContext } from '@nestjs/common';
import * as path from 'node:path';
import { SETTLEMENT_COMMANDS } from './settlement-commands';
import { OpsContext, openOpsContext } from './ops-context';

const COMMANDS = { ...IDENTITY_COMMANDS, ...SETTLEMENT_COMMANDS };

/** What a command runs with: its environment, and where its one JSON object (stdout) and its diagnostics (stderr) go. */
export interface AdminIo {
  readonly env: NodeJS.ProcessEnv;
  stdout(text: string): void;
  stderr(text: string): void;
}

/**
 * `npm run admin -- <command> [options]`. Works whether or not the APIs run,
 * against the same database. stdout: exactly one JSON object; diagnostics go
 * to stderr; the exit status: 0 done, 1 failed or refused, 2 not understood.
 * The process below runs it with its own environment and streams; the tests run it in theirs (test/operator-cli.ts).
 */
export async function runAdmin(argv: string[], io: AdminIo): Promise<number> {
  const log = (line: string) => io.stderr(`[admin] ${line}\n`);
  const [name, ...rest] = argv;
  const command = name ? COMMANDS[name] : undefined;
  if (!command) {
    log(
      `usage: npm run admin -- <command>\n${Object.values(COMMANDS)
        .map((c) => `  ${c.usage}`)
        .join('\n')}`,
    );
    return 2;
  }
  let options: Options;
  try {
    options = parseArgs({
      args: rest,
      options: {
        name: { type: 'string' },
        business: { type: 'string' },
        merchant: { type: 'string' },
        country: { type: 'string' },
        approve: { type: 'boolean' },
        'grace-minutes': { type: 'string' },
        'api-key': { type: 'string' },
        scope: { type: 'string', multiple: true },
        off: { type: 'boolean' },
        min: { type: 'string' },
        email: { type: 'string' },
        role: { type: 'string' },
        'country-processor': { type: 'string' },
        percentage: { type: 'string' },
        fixed: { type: 'string' },
        currency: { type: 'string' },
        'settlement-delay-days': { type: 'string' },
        amount: { type: 'string' },
        reason: { type: 'string' },
        bank: { type: 'string' },
        out: { type: 'string' },
        payout: { type: 'string' },
        'payment-intent': { type: 'string' },
        'bank-reference': { type: 'string' },
        from: { type: 'string' },
        to: { type: 'string' },
        date: { type: 'string' },
        head: { type: 'string' },
        'anchor-file': { type: 'string' },
        batch: { type: 'string' },
        document: { type: 'string' },
        account: { type: 'string' },
        agreement: { type: 'string' },
        processor: { type: 'string' },
      },
      strict: true,
    }).values;
  } catch (error) {
    log(`${(error as Error).message}\nusage: npm run admin -- ${command.usage}`);
    return 2;
  }
  let context: OpsContext;
  try {
    context = await openOpsContext(log, io.env);
  } catch (error) {
    log(`failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  try {
    const result = await command.run(context.app, options, { env: context.env });
    io.stdout(JSON.stringify(result) + '\n');
    return 0;
  } catch (error) {
    if (error instanceof AuditBroken) {
      io.stdout(JSON.stringify(error.verdict) + '\n');
      log(error.message);
    } else if (error instanceof UsageError) log(`${error.message}\nusage: npm run admin -- ${command.usage}`);
    else log(`failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    // What the command wrote to the audit log moves the chain's head: written outside the database too (contract §22).
    await writeAuditHead(context.app, context.env.dataDir, log).catch((error: unknown) => log(`audit head not written: ${String(error)}`));
    await context.close();
  }
}

/** The audit chain's head, to DATA_DIR/audit-head.json (a dashboard on the same machine writes it every minute too). */
async function writeAuditHead(app: INestApplicationContext, dataDir: string, log: (line: string) => void): Promise<void> {
  const { agrees } = await dashboard(app).advanceChainHead(path.join(dataDir, AUDIT_HEAD_FILE));
  if (!agrees) log('the audit log differs from its head outside the database: run npm run admin -- audit:verify');
}

if (require.main === module) {
  loadDotEnv();
  runAdmin(process.argv.slice(2), {
    env: process.env,
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  }).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`[admin] failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
