/*
 * Why one file: the operator's command table: each command's options, checks and answer side by side, so that
 * help, parsing and the audit of each read one table.
 */
/**
 * The operator's commands (`npm run admin -- <command>`): businesses,
 * merchants, credentials, people, sandbox events, secrets. Long because it is
 * the table of commands, each a few lines that parse their flags and call one
 * service; the money and settlement commands are in settlement-commands.ts.
 */
import { INestApplicationContext } from '@nestjs/common';
import { Environment, RuntimeSettings } from '@pcs/config';
import { BusinessService, CredentialService, DEFAULT_ROTATION_GRACE_MINUTES, SignatureVersion } from '@pcs/businesses';
import { merchantRepresentation, MerchantService } from '@pcs/merchants';
import { DisputeReports } from '@pcs/disputes';
import {
  asBusinessId,
  asMerchantId,
  BusinessId,
  CREDENTIAL_SCOPES,
  decimalTextToScaledInteger,
  DISPUTE_REASONS,
  DisputeReason,
  DomainError,
  isCredentialScope,
  MerchantId,
} from '@pcs/kernel';
import {
  AnchorReading,
  anchorKeyOf,
  AUDIT_HEAD_FILE,
  auditKeyOf,
  ChainHead,
  DashboardIdentity,
  dashboardIdentityOn,
  DashboardUser,
  IdentityError,
  isRole,
  readAnchor,
  readAnchorFile,
  readChainHead,
  Role,
  ROLES,
} from '@pcs/dashboard-identity';
import * as path from 'node:path';
import { actorOf } from './operator-actor';
import { resealEverySecret } from './reseal';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export type Options = Record<string, string | boolean | string[] | undefined>;

export class UsageError extends Error {}

function required(options: Options, name: string): string {
  const value = options[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value.trim();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function uuid(options: Options, name: string): string {
  const value = required(options, name);
  if (!UUID.test(value)) throw new UsageError(`--${name} must be a UUID`);
  return value.toLowerCase();
}

async function merchantOwner(
  app: INestApplicationContext,
  merchantId: MerchantId,
): Promise<{ businessId: BusinessId; merchantId: MerchantId }> {
  const merchant = await app.get(MerchantService).findById(merchantId);
  if (!merchant || merchant.deletedAt !== null) throw new UsageError('no merchant has that id');
  return { businessId: merchant.businessId, merchantId };
}

/** The dashboard's identity as the operator's commands use it: the audit chain keyed from the master key. */
export function dashboard(app: INestApplicationContext): DashboardIdentity {
  const settings = app.get(RuntimeSettings);
  return dashboardIdentityOn(app.get<DataSource>(getDataSourceToken()), null, {
    auditKeys: settings.masterKeyRing.map(auditKeyOf),
  });
}

/** What the operator did to a credential, in its business's audit log (contract §22): the key, never a secret. */
async function credentialAudit(
  app: INestApplicationContext,
  businessId: string | null,
  action: string,
  apiKey: string,
  detail: Record<string, unknown>,
): Promise<void> {
  const owner =
    businessId ??
    (await app.get<DataSource>(getDataSourceToken()).query('SELECT business_id FROM api_credential WHERE api_key = $1', [apiKey]))[0]
      ?.business_id;
  if (owner)
    await dashboard(app).audit({
      businessId: owner,
      userId: null,
      email: actorOf(app),
      action,
      target: apiKey,
      result: 'succeeded',
      detail,
    });
}

/** A merchant approved or suspended by the operator, in its business's audit log (contract §27), refused ones too. */
async function merchantStatusChange(
  app: INestApplicationContext,
  action: 'merchant:approve' | 'merchant:suspend',
  merchantId: MerchantId,
  change: (merchantId: MerchantId) => ReturnType<MerchantService['approve']>,
): Promise<object> {
  const before = await app.get(MerchantService).findById(merchantId);
  const record = (result: 'succeeded' | 'refused' | 'failed', detail: Record<string, unknown>) =>
    before
      ? dashboard(app).audit({
          businessId: before.businessId,
          userId: null,
          email: actorOf(app),
          action,
          target: merchantId,
          result,
          detail,
        })
      : Promise.resolve();
  try {
    const merchant = await change(merchantId);
    await record('succeeded', { status: merchant.status });
    return merchantRepresentation({ merchant, credentials: null });
  } catch (error) {
    await record(error instanceof DomainError ? 'refused' : 'failed', { error: (error as Error).message.slice(0, 200) });
    throw error;
  }
}

/** A person disabled, enabled or given a role by the operator (contract §27), audited whether done or refused. */
async function standing(
  app: INestApplicationContext,
  email: string,
  action: 'user:disable' | 'user:enable' | 'user:set-role',
  change: { disabled?: boolean; role?: Role },
): Promise<object> {
  const identity = dashboard(app);
  const user = await identity.userByEmail(email, { disabledToo: true });
  if (!user) throw new UsageError('no user has that email');
  const audit = (result: 'succeeded' | 'refused', detail: Record<string, unknown>) =>
    identity.audit({ businessId: user.businessId, userId: null, email: actorOf(app), action, target: user.email, result, detail });
  try {
    await identity.changeStanding(user.userId, change);
  } catch (error) {
    if (!(error instanceof IdentityError)) throw error;
    await audit('refused', { ...change, reason: error.message });
    throw new UsageError(error.message);
  }
  await audit('succeeded', { ...change });
  const now = (await identity.anyMemberOf(user.businessId, user.userId))!;
  return { userId: now.userId, email: now.email, role: now.role, disabled: change.disabled ?? null };
}

/** A broken audit chain: the verdict is still the command's one JSON object, and it exits 1. */
export class AuditBroken extends Error {
  constructor(readonly verdict: object) {
    super('the audit chain is broken');
  }
}

/** A person of the dashboard by email, or the operator's mistake. */
async function person(app: INestApplicationContext, email: string): Promise<DashboardUser> {
  const user = await dashboard(app).userByEmail(email);
  if (!user) throw new UsageError('no user has that email');
  return user;
}

/** What the operator did to a person, in the business's audit log (contract §22), never a password. */
async function operatorAudit(
  app: INestApplicationContext,
  user: DashboardUser,
  action: string,
  detail: Record<string, unknown> = {},
): Promise<void> {
  await dashboard(app).audit({
    businessId: user.businessId,
    userId: null,
    email: actorOf(app),
    action,
    target: user.email,
    result: 'succeeded',
    detail,
  });
}

/** The dashboard's and the domain's refusals (an email taken, a payment not collected) are the operator's to fix: a usage error. */
async function asUsageErrors<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof IdentityError || error instanceof DomainError) throw new UsageError(error.message);
    throw error;
  }
}

/** Where a command runs: the operator's validated environment (DATA_DIR, the audit anchor), read once by the runner. */
export interface CommandScope {
  readonly env: Environment;
}

/** Each command prints exactly one JSON object (contract §11). */
/** A command: its usage line, and what it does with the domain, its options and the environment it runs in. */
export type Command = {
  usage: string;
  run: (app: INestApplicationContext, options: Options, where: CommandScope) => Promise<object>;
};

export const COMMANDS: Record<string, Command> = {
  'business:create': {
    usage: 'business:create --name <name>',
    run: async (app, o) => {
      const created = await app.get(BusinessService).create(required(o, 'name'));
      // Its credential is issued with it: in its audit log (contract §22), the key and never the secret.
      await credentialAudit(app, created.businessId, 'business:create', created.apiKey, {});
      return created;
    },
  },
  'merchant:create': {
    usage: 'merchant:create --business <businessId> --name <name> [--country URY|ARG|BRA] [--approve]',
    run: async (app, o) => {
      const country = typeof o.country === 'string' ? o.country.toUpperCase() : 'URY';
      if (!['URY', 'ARG', 'BRA'].includes(country)) throw new UsageError('--country must be URY, ARG or BRA');
      const created = await app.get(MerchantService).create({
        businessId: asBusinessId(uuid(o, 'business')),
        name: required(o, 'name'),
        countryIso3: country,
        approve: o.approve === true,
      });
      await credentialAudit(app, created.businessId, 'merchant:create', created.apiKey, { merchantId: created.merchantId });
      return created;
    },
  },
  'merchant:approve': {
    usage: 'merchant:approve --merchant <merchantId>',
    run: async (app, o) =>
      merchantStatusChange(app, 'merchant:approve', asMerchantId(uuid(o, 'merchant')), (id) => app.get(MerchantService).approve(id)),
  },
  'merchant:suspend': {
    usage: 'merchant:suspend --merchant <merchantId>',
    run: async (app, o) =>
      merchantStatusChange(app, 'merchant:suspend', asMerchantId(uuid(o, 'merchant')), (id) => app.get(MerchantService).suspend(id)),
  },
  'credentials:rotate': {
    usage: 'credentials:rotate (--api-key <apiKey> | --business <businessId> | --merchant <merchantId>) [--grace-minutes <n>]',
    run: async (app, o) => {
      const graceText = o['grace-minutes'];
      const grace =
        graceText === undefined
          ? DEFAULT_ROTATION_GRACE_MINUTES
          : typeof graceText === 'string'
            ? decimalTextToScaledInteger(graceText.trim(), 0)
            : null;
      if (grace === null) throw new UsageError('--grace-minutes must be a whole number of minutes, 0 or more (digits only)');
      if (o['api-key'] !== undefined) {
        // A new secret for the same key (contract §22): both verify until the grace ends.
        if (o.business !== undefined || o.merchant !== undefined) throw new UsageError('--api-key rotates that key alone');
        const rotated = await asUsageErrors(() => app.get(CredentialService).rotateSecret(required(o, 'api-key'), grace));
        await credentialAudit(app, rotated.businessId, 'credentials:rotate-secret', rotated.apiKey, { graceMinutes: grace });
        return { apiKey: rotated.apiKey, apiSecret: rotated.apiSecret, previousSecretExpiresAt: rotated.previousSecretExpiresAt };
      }
      if ((o.business === undefined) === (o.merchant === undefined))
        throw new UsageError('give one of --api-key, --business or --merchant');
      let owner: { businessId: BusinessId; merchantId: MerchantId | null };
      if (o.merchant !== undefined) owner = await merchantOwner(app, asMerchantId(uuid(o, 'merchant')));
      else {
        const businessId = asBusinessId(uuid(o, 'business'));
        if (!(await app.get(BusinessService).exists(businessId))) throw new UsageError('no business has that id');
        owner = { businessId, merchantId: null };
      }
      const { apiKey, apiSecret } = await app.get(CredentialService).rotate(owner, grace);
      await credentialAudit(app, owner.businessId, 'credentials:rotate', apiKey, { merchantId: owner.merchantId, graceMinutes: grace });
      return { apiKey, apiSecret };
    },
  },
  'credentials:create-restricted': {
    usage:
      'credentials:create-restricted --business <businessId> --scope <scope> [--scope <scope> …]   # a credential limited to scopes: read, payments:write, merchants:write, money:write, secrets:read',
    run: async (app, o) => {
      const businessId = asBusinessId(uuid(o, 'business'));
      const given = ([] as string[]).concat(o.scope === undefined || typeof o.scope === 'boolean' ? [] : o.scope);
      const scopes = given.flatMap((scope) => scope.split(',')).map((scope) => scope.trim());
      if (scopes.length === 0 || scopes.some((scope) => scope === ''))
        throw new UsageError(`give at least one --scope: ${CREDENTIAL_SCOPES.join(', ')}`);
      const unknown = scopes.filter((scope) => !isCredentialScope(scope));
      if (unknown.length) throw new UsageError(`--scope ${unknown[0]} is not one of ${CREDENTIAL_SCOPES.join(', ')}`);
      if (!(await app.get(BusinessService).exists(businessId))) throw new UsageError('no business has that id');
      const held = [...new Set(scopes.filter(isCredentialScope))];
      const { apiKey, apiSecret } = await app.get(CredentialService).issue({ businessId, merchantId: null }, undefined, held);
      // In its business's audit log (contract §22, §29): the key and its scopes, never the secret.
      await credentialAudit(app, businessId, 'credentials:create-restricted', apiKey, { scopes: held });
      return { businessId, apiKey, apiSecret, scopes: held };
    },
  },
  'credentials:list': {
    usage: "credentials:list --business <businessId>   # its credentials and its merchants', with their last use; never a secret",
    run: async (app, o) => {
      const businessId = asBusinessId(uuid(o, 'business'));
      if (!(await app.get(BusinessService).exists(businessId))) throw new UsageError('no business has that id');
      return { credentials: await app.get(CredentialService).summariesOf({ businessId, merchantId: null }) };
    },
  },
  'credentials:require-version': {
    usage:
      'credentials:require-version --api-key <apiKey> --min 2|3 [--off]   # the lowest signing version the pair accepts; --off accepts every version again',
    run: async (app, o) => {
      const apiKey = required(o, 'api-key');
      let minSignatureVersion: SignatureVersion = 1;
      if (o.off !== true) {
        const min = required(o, 'min');
        if (min !== '2' && min !== '3') throw new UsageError('--min must be 2 or 3');
        minSignatureVersion = min === '2' ? 2 : 3;
      } else if (o.min !== undefined) throw new UsageError('--off takes no --min');
      await asUsageErrors(() => app.get(CredentialService).requireVersion(apiKey, minSignatureVersion));
      await credentialAudit(app, null, 'credentials:require-version', apiKey, { minSignatureVersion });
      return { apiKey, minSignatureVersion };
    },
  },
  'user:create': {
    usage: 'user:create --business <businessId> --email <email> --role admin|operator|viewer [--merchant <merchantId>]',
    run: async (app, o) => {
      const role = o.role;
      if (!isRole(role)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
      const businessId = asBusinessId(uuid(o, 'business'));
      if (!(await app.get(BusinessService).exists(businessId))) throw new UsageError('no business has that id');
      let merchantId: MerchantId | null = null;
      if (o.merchant !== undefined) {
        const owner = await merchantOwner(app, asMerchantId(uuid(o, 'merchant')));
        if (owner.businessId !== businessId) throw new UsageError('that merchant is not of that business');
        merchantId = owner.merchantId;
      }
      const user = await asUsageErrors(() => dashboard(app).createUser({ businessId, merchantId, email: required(o, 'email'), role }));
      await operatorAudit(app, user, 'user:create', { role, merchantId });
      return { userId: user.userId, email: user.email, role: user.role, ...(merchantId ? { merchantId } : {}), password: user.password };
    },
  },
  'user:reset-password': {
    usage: 'user:reset-password --email <email>',
    run: async (app, o) => {
      const user = await asUsageErrors(() => dashboard(app).resetPassword(required(o, 'email')));
      await operatorAudit(app, user, 'user:reset-password');
      return { userId: user.userId, email: user.email, password: user.password };
    },
  },
  'audit:verify': {
    usage:
      'audit:verify [--head <file>] [--anchor-file <file>]   # default DATA_DIR/audit-head.json, and the newest head at AUDIT_ANCHOR_URL when set',
    run: async (app, o, where) => {
      const file = typeof o.head === 'string' ? o.head : path.join(where.env.dataDir, AUDIT_HEAD_FILE);
      let outside: ChainHead | null;
      try {
        outside = readChainHead(file);
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
      // The newest head the anchor kept (contract §27): a file it was copied to, or the endpoint itself.
      // Heads whose mac does not verify under a generation of the ring are ignored, and reported (contract §29).
      let reading: AnchorReading = { anchor: null, ignored: [] };
      const anchorUrl = where.env.AUDIT_ANCHOR_URL?.trim();
      const anchorKeys = app.get(RuntimeSettings).masterKeyRing.map(anchorKeyOf);
      try {
        if (typeof o['anchor-file'] === 'string') reading = readAnchorFile(o['anchor-file'], anchorKeys);
        else if (anchorUrl) reading = await readAnchor(anchorUrl, anchorKeys, where.env.AUDIT_ANCHOR_TOKEN?.trim() || undefined);
      } catch (error) {
        throw new UsageError(`the audit anchor could not be read: ${(error as Error).message}`);
      }
      const anchor = reading.anchor;
      const identity = dashboard(app);
      const verdict = await identity.verifyAuditChain(outside);
      const anchored = verdict.ok && anchor ? await identity.verifyAuditChain(anchor) : verdict;
      const result = {
        ...anchored,
        headFile: outside ? { file, ...outside } : null,
        anchor: anchor ? { source: typeof o['anchor-file'] === 'string' ? o['anchor-file'] : 'AUDIT_ANCHOR_URL', ...anchor } : null,
        ...(reading.ignored.length ? { anchorIgnored: reading.ignored } : {}),
      };
      if (!anchored.ok) throw new AuditBroken(result);
      return result;
    },
  },
  'audit:seal': {
    usage: 'audit:seal   # chains the entries waiting for their seal now (the services seal them within a second while they run)',
    run: async (app) => ({ sealed: await dashboard(app).sealAudit() }),
  },
  'secrets:rotate-master-key': {
    usage: 'secrets:rotate-master-key   # with the new key in SECRETS_MASTER_KEY and the old one in SECRETS_MASTER_KEY_PREVIOUS',
    run: async (app) => {
      const settings = app.get(RuntimeSettings);
      if (!settings.secretsMasterKeyPrevious)
        throw new UsageError('set the new key in SECRETS_MASTER_KEY and the one it replaces in SECRETS_MASTER_KEY_PREVIOUS');
      const resealed = await resealEverySecret(app);
      const businesses: { business_id: string }[] = await app
        .get<DataSource>(getDataSourceToken())
        .query('SELECT business_id FROM business');
      for (const { business_id } of businesses)
        await dashboard(app).audit({
          businessId: business_id,
          userId: null,
          email: actorOf(app),
          action: 'secrets:rotate-master-key',
          result: 'succeeded',
          detail: resealed,
        });
      return { resealed };
    },
  },
  'user:unlock': {
    usage: 'user:unlock --email <email>',
    run: async (app, o) => {
      const user = await person(app, required(o, 'email'));
      await dashboard(app).unlock(user.userId);
      await operatorAudit(app, user, 'user:unlock');
      return { userId: user.userId, email: user.email, unlocked: true };
    },
  },
  'user:reset-mfa': {
    usage: 'user:reset-mfa --email <email>',
    run: async (app, o) => {
      const user = await person(app, required(o, 'email'));
      await dashboard(app).resetSecondFactor(user.userId);
      await operatorAudit(app, user, 'user:reset-mfa');
      return { userId: user.userId, email: user.email, mfaReset: true };
    },
  },
  'user:disable': {
    usage: 'user:disable --email <email>   # their sessions end at once; never the last enabled admin of the business',
    run: async (app, o) => standing(app, required(o, 'email'), 'user:disable', { disabled: true }),
  },
  'user:enable': {
    usage: 'user:enable --email <email>',
    run: async (app, o) => standing(app, required(o, 'email'), 'user:enable', { disabled: false }),
  },
  'user:set-role': {
    usage: `user:set-role --email <email> --role ${ROLES.join('|')}   # never demotes the last enabled admin of the business`,
    run: async (app, o) => {
      const role = o.role;
      if (!isRole(role)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
      return standing(app, required(o, 'email'), 'user:set-role', { role });
    },
  },
  'sandbox:dispute': {
    usage: `sandbox:dispute --payment-intent <paymentIntentId> [--reason ${DISPUTE_REASONS.join('|')}]`,
    run: async (app, o) => {
      const reason = o.reason === undefined ? 'GENERAL' : String(o.reason).toUpperCase();
      if (!(DISPUTE_REASONS as readonly string[]).includes(reason))
        throw new UsageError(`--reason must be one of ${DISPUTE_REASONS.join(', ')}`);
      const disputeId = await asUsageErrors(() =>
        app.get(DisputeReports).openSandbox({ paymentIntentId: uuid(o, 'payment-intent') }, reason as DisputeReason),
      );
      return { disputeId };
    },
  },
  'credentials:revoke': {
    usage: 'credentials:revoke --api-key <apiKey>',
    run: async (app, o) => {
      const apiKey = required(o, 'api-key');
      await app.get(CredentialService).revoke(apiKey);
      await credentialAudit(app, null, 'credentials:revoke', apiKey, {});
      return { revoked: true };
    },
  },
};
