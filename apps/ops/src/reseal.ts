import { INestApplicationContext } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { CredentialService } from '@pcs/businesses';
import { RuntimeSettings } from '@pcs/config';
import { dashboardIdentityOn } from '@pcs/dashboard-identity';
import { GatewayAccounts } from '@pcs/gateway-accounts';
import { WebhookEndpointService } from '@pcs/notifications';
import { DataSource } from 'typeorm';
import { UnitOfWork } from '@pcs/kernel';

/**
 * `secrets:rotate-master-key` (contract §22): every sealed secret — API
 * secrets (current and previous), gateway accounts' credentials, webhook
 * endpoints' secrets (current and previous), the dashboard's second-factor
 * seeds — opened with either key and sealed again under the master key, in
 * one transaction with every row locked: all of them, or none. Each context
 * reseals its own rows through its own service (issue 41: the operator's
 * commands write no context's tables themselves). Processes running with
 * both keys keep working throughout; afterwards the previous key may be
 * dropped.
 */
export async function resealEverySecret(app: INestApplicationContext): Promise<Record<string, number>> {
  const dataSource = app.get<DataSource>(getDataSourceToken());
  const settings = app.get(RuntimeSettings);
  const people = dashboardIdentityOn(dataSource, settings.secretBox());
  return app.get(UnitOfWork).run(async (tx) => ({
    apiCredentials: await app.get(CredentialService, { strict: false }).resealSecrets(tx),
    gatewayAccounts: await app.get(GatewayAccounts, { strict: false }).resealSecrets(tx),
    webhookEndpoints: await app.get(WebhookEndpointService, { strict: false }).resealSecrets(tx),
    secondFactors: await people.resealSecondFactors(tx),
  }));
}
