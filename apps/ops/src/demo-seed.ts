import { INestApplicationContext } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { BusinessService, CredentialService } from '@pcs/businesses';
import { dashboardIdentityOn } from '@pcs/dashboard-identity';
import { CredentialScope, Currency } from '@pcs/kernel';
import { MerchantService } from '@pcs/merchants';
import { SettlementAccountsService } from '@pcs/settlement';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DataSource } from 'typeorm';

export interface DemoCredentials {
  business: { businessId: string; apiKey: string; apiSecret: string };
  merchant: { merchantId: string; apiKey: string; apiSecret: string };
  /** The dashboard's first admin (contract §18): its password is shown once and kept only here. */
  dashboard?: { email: string; password: string };
  /** The credential the dashboard signs with (contract §29): restricted, without `secrets:read`. */
  dashboardCredential?: { apiKey: string; apiSecret: string; scopes: readonly CredentialScope[] };
}

/** What the dashboard does through the payins API (contract §29): everything but reading a merchant's secret. */
export const DASHBOARD_SCOPES: readonly CredentialScope[] = ['read', 'payments:write', 'merchants:write', 'money:write'];

export const DEMO_ADMIN_EMAIL = 'admin@demo.local';

// Its own key: the job queue takes 7_130_501_002 to create a queue, which a seed recording an event waits for.
const SEED_LOCK_KEY = 7_130_501_003;

/**
 * On an empty database: a demo business and an ACTIVE demo merchant in URY
 * with every URY country processor and a settlement account in UYU, credentials for both, written to
 * <DATA_DIR>/demo-credentials.json, with the dashboard's first admin and
 * its generated password. An advisory lock makes concurrent starts
 * seed once. Returns null when the database already has a business.
 */
export async function seedDemoIfEmpty(app: INestApplicationContext, dataDir: string): Promise<DemoCredentials | null> {
  const dataSource = app.get<DataSource>(getDataSourceToken());
  const lock = dataSource.createQueryRunner();
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [SEED_LOCK_KEY]);
    const [{ count }] = await lock.query('SELECT count(*)::int AS count FROM business');
    if (count > 0) return null;
    const business = await app.get(BusinessService).create('Demo business');
    const merchant = await app
      .get(MerchantService)
      .create({ businessId: business.businessId, name: 'Demo merchant', countryIso3: 'URY', approve: true });
    // Its settlement account in UYU at BROU, so payouts work from the first start (contract §19).
    const settlement = app.get(SettlementAccountsService);
    const brou = (await settlement.banks('URY')).find((bank) => bank.code === '001')!;
    await settlement.put(
      { credentialId: 'demo-seed', businessId: business.businessId, merchantId: merchant.merchantId },
      merchant.merchantId,
      Currency.UYU,
      { bankId: brou.bankId, accountNumber: '00123456700001', accountType: 'SAVINGS' },
    );
    const admin = await dashboardIdentityOn(dataSource).createUser({
      businessId: business.businessId,
      merchantId: null,
      email: DEMO_ADMIN_EMAIL,
      role: 'admin',
    });
    const dashboardCredential = await app
      .get(CredentialService)
      .issue({ businessId: business.businessId, merchantId: null }, undefined, DASHBOARD_SCOPES);
    const demo: DemoCredentials = {
      business: { businessId: business.businessId, apiKey: business.apiKey, apiSecret: business.apiSecret },
      merchant: { merchantId: merchant.merchantId, apiKey: merchant.apiKey, apiSecret: merchant.apiSecret },
      dashboard: { email: admin.email, password: admin.password },
      dashboardCredential: { ...dashboardCredential, scopes: DASHBOARD_SCOPES },
    };
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'demo-credentials.json'), JSON.stringify(demo, null, 2) + '\n', { mode: 0o600 });
    return demo;
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [SEED_LOCK_KEY]).catch(() => undefined);
    await lock.release();
  }
}
