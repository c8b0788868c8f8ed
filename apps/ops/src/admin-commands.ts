import { INestApplicationContext } from '@nestjs/common';
import { BusinessService, CredentialService, DEFAULT_ROTATION_GRACE_MINUTES } from '@pcs/businesses';
import { merchantRepresentation, MerchantService } from '@pcs/merchants';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export type Options = Record<string, string | boolean | undefined>;

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

async function merchantOwner(app: INestApplicationContext, merchantId: string): Promise<{ businessId: string; merchantId: string }> {
  const rows: { business_id: string }[] = await app
    .get<DataSource>(getDataSourceToken())
    .query('SELECT business_id FROM merchant WHERE merchant_id = $1 AND deleted_at IS NULL', [merchantId]);
  if (rows.length === 0) throw new UsageError('no merchant has that id');
  return { businessId: rows[0].business_id, merchantId };
}

/** Each command prints exactly one JSON object (contract §11). */
export const COMMANDS: Record<string, { usage: string; run: (app: INestApplicationContext, options: Options) => Promise<object> }> = {
  'business:create': {
    usage: 'business:create --name <name>',
    run: (app, o) => app.get(BusinessService).create(required(o, 'name')),
  },
  'merchant:create': {
    usage: 'merchant:create --business <businessId> --name <name> [--country URY|ARG|BRA] [--approve]',
    run: async (app, o) => {
      const country = typeof o.country === 'string' ? o.country.toUpperCase() : 'URY';
      if (!['URY', 'ARG', 'BRA'].includes(country)) throw new UsageError('--country must be URY, ARG or BRA');
      return app
        .get(MerchantService)
        .create({ businessId: uuid(o, 'business'), name: required(o, 'name'), countryIso3: country, approve: o.approve === true });
    },
  },
  'merchant:approve': {
    usage: 'merchant:approve --merchant <merchantId>',
    run: async (app, o) =>
      merchantRepresentation({ merchant: await app.get(MerchantService).approve(uuid(o, 'merchant')), credentials: null }),
  },
  'merchant:suspend': {
    usage: 'merchant:suspend --merchant <merchantId>',
    run: async (app, o) =>
      merchantRepresentation({ merchant: await app.get(MerchantService).suspend(uuid(o, 'merchant')), credentials: null }),
  },
  'credentials:rotate': {
    usage: 'credentials:rotate (--business <businessId> | --merchant <merchantId>) [--grace-minutes <n>]',
    run: async (app, o) => {
      const grace = o['grace-minutes'] === undefined ? DEFAULT_ROTATION_GRACE_MINUTES : Number(o['grace-minutes']);
      if (!Number.isInteger(grace) || grace < 0) throw new UsageError('--grace-minutes must be a non-negative integer');
      if ((o.business === undefined) === (o.merchant === undefined)) throw new UsageError('give exactly one of --business or --merchant');
      let owner: { businessId: string; merchantId: string | null };
      if (o.merchant !== undefined) owner = await merchantOwner(app, uuid(o, 'merchant'));
      else {
        const businessId = uuid(o, 'business');
        if (!(await app.get(BusinessService).exists(businessId))) throw new UsageError('no business has that id');
        owner = { businessId, merchantId: null };
      }
      const { apiKey, apiSecret } = await app.get(CredentialService).rotate(owner, grace);
      return { apiKey, apiSecret };
    },
  },
  'credentials:revoke': {
    usage: 'credentials:revoke --api-key <apiKey>',
    run: async (app, o) => {
      await app.get(CredentialService).revoke(required(o, 'api-key'));
      return { revoked: true };
    },
  },
};
