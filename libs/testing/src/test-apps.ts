import * as crypto from 'node:crypto';
import { INestApplication } from '@nestjs/common';
import { BusinessService, CreatedBusiness } from '@pcs/businesses';
import { CreatedMerchant, MerchantService } from '@pcs/merchants';
import type { Server } from 'node:http';
import { ApiCredentials, SignedClient } from './signed-client';

/** A business with its merchants, built through the real services (test factory). */
export interface TestTenant {
  readonly business: CreatedBusiness;
  readonly merchants: CreatedMerchant[];
}

export async function createTenant(
  app: INestApplication,
  options: { merchants?: number; country?: string; approve?: boolean; name?: string } = {},
): Promise<TestTenant> {
  const business = await app.get(BusinessService).create(options.name ?? `Business ${crypto.randomUUID().slice(0, 8)}`);
  const merchants: CreatedMerchant[] = [];
  for (let i = 0; i < (options.merchants ?? 1); i++) {
    merchants.push(
      await app.get(MerchantService).create({
        businessId: business.businessId,
        name: `Merchant ${i + 1} of ${business.name}`,
        countryIso3: options.country ?? 'URY',
        approve: options.approve ?? true,
      }),
    );
  }
  return { business, merchants };
}

export function clientFor(app: INestApplication, credentials: ApiCredentials): SignedClient {
  return new SignedClient(app.getHttpServer() as Server, { apiKey: credentials.apiKey, apiSecret: credentials.apiSecret });
}
