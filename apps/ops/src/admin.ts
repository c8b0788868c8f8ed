import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { AuditBroken, COMMANDS as IDENTITY_COMMANDS, dashboard, Options, UsageError } from './admin-commands';
import { AUDIT_HEAD_FILE } from '@pcs/dashboard-identity';
import type { INestApplicationContext } from '@nestjs/common';
import * as path from 'node:path';
import { SETTLEMENT_COMMANDS } from './settlement-commands';

const COMMANDS = { ...IDENTITY_COMMANDS, ...SETTLEMENT_COMMANDS };
import { openOpsContext } from './ops-context';

const log = (line: string) => process.stderr.write(`[admin] ${line}\n`);

/**
 * `npm run admin -- <command> [options]`. Works whether or not the APIs run,
 * against the same database. stdout: exactly one JSON object; diagnostics go
 * to stderr; failures exit non-zero.
 */
async function main(argv: string[]): Promise<number> {
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
  const context = await openOpsContext(log);
  try {
    const result = await command.run(context.app, options, { dataDir: context.env.dataDir });
    process.stdout.write(JSON.stringify(result) + '\n');
    return 0;
  } catch (error) {
    if (error instanceof AuditBroken) {
      process.stdout.write(JSON.stringify(error.verdict) + '\n');
      log(error.message);
    } else if (error instanceof UsageError) log(`${error.message}\nusage: npm run admin -- ${command.usage}`);
    else log(`failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    // What the command wrote to the audit log moves the chain's head: written outside the database too (contract §22).
    await writeAuditHead(context.app, context.env.dataDir).catch((error: unknown) => log(`audit head not written: ${String(error)}`));
    await context.close();
  }
}

/** The audit chain's head, to DATA_DIR/audit-head.json (a dashboard on the same machine writes it every minute too). */
async function writeAuditHead(app: INestApplicationContext, dataDir: string): Promise<void> {
  const { agrees } = await dashboard(app).advanceChainHead(path.join(dataDir, AUDIT_HEAD_FILE));
  if (!agrees) log('the audit log differs from its head outside the database: run npm run admin -- audit:verify');
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    log(`failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
