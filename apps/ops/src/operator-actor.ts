import type { INestApplicationContext } from '@nestjs/common';
import * as os from 'node:os';

/**
 * Who ran an operator command, as its audit entries name them (contract
 * §27): `operator:` and OPERATOR_NAME when set (a deployment's shared
 * account names its person there), otherwise the OS user running it.
 */
export function operatorActor(env: NodeJS.ProcessEnv = process.env): string {
  const named = (env.OPERATOR_NAME ?? '').trim();
  if (named) return `operator:${named.slice(0, 100)}`;
  try {
    return `operator:${os.userInfo().username}`;
  } catch {
    // No passwd entry for this uid (a container's arbitrary user): its number.
    return `operator:uid-${process.getuid?.() ?? 'unknown'}`;
  }
}

/** The audit entries of operator actions on no one business (a country's settlement run): the platform's own log. */
export const PLATFORM_AUDIT_BUSINESS = '00000000-0000-0000-0000-000000000000';

/** Who runs the commands of an operations context (its audit entries' actor): one per context, given when it is built. */
export class OperatorOnDuty {
  constructor(readonly actor: string) {}
}

/** The actor of the operator running this context's command. */
export function actorOf(app: INestApplicationContext): string {
  return app.get(OperatorOnDuty).actor;
}
