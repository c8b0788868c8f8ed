import { SecretBox } from '@pcs/config';
import { mfaSealedFor } from '@pcs/dashboard-identity';
import { sealedFor } from '@pcs/gateway-accounts';
import { DataSource, EntityManager } from 'typeorm';

/**
 * `secrets:rotate-master-key` (contract §22): every sealed secret — API
 * secrets (current and previous), gateway accounts' credentials, webhook
 * endpoints' secrets (current and previous), the dashboard's second-factor
 * seeds — opened with either key and sealed again under the master key, in
 * one transaction with every row locked: all of them, or none. Processes
 * running with both keys keep working throughout; afterwards the previous
 * key may be dropped.
 */
export async function resealEverySecret(dataSource: DataSource, box: SecretBox): Promise<Record<string, number>> {
  return dataSource.transaction(async (manager) => {
    const counts: Record<string, number> = {};
    const reseal = async <T extends Record<string, string | null>>(
      kind: string,
      select: string,
      update: string,
      seal: (row: T) => unknown[],
    ) => {
      const rows: T[] = await manager.query(select);
      for (const row of rows) await manager.query(update, seal(row));
      counts[kind] = rows.length;
    };
    await reseal<{ credential_id: string; api_key: string; secret_ciphertext: string; previous_secret_ciphertext: string | null }>(
      'apiCredentials',
      'SELECT credential_id, api_key, secret_ciphertext, previous_secret_ciphertext FROM api_credential ORDER BY credential_id FOR UPDATE',
      'UPDATE api_credential SET secret_ciphertext = $2, previous_secret_ciphertext = $3 WHERE credential_id = $1',
      (r) => [
        r.credential_id,
        box.reseal(r.secret_ciphertext, r.api_key),
        r.previous_secret_ciphertext && box.reseal(r.previous_secret_ciphertext, r.api_key),
      ],
    );
    await resealGatewayAccounts(manager, box, counts);
    await reseal<{ webhook_endpoint_id: string; secret_ciphertext: string; previous_secret_ciphertext: string | null }>(
      'webhookEndpoints',
      'SELECT webhook_endpoint_id, secret_ciphertext, previous_secret_ciphertext FROM webhook_endpoint ORDER BY webhook_endpoint_id FOR UPDATE',
      'UPDATE webhook_endpoint SET secret_ciphertext = $2, previous_secret_ciphertext = $3 WHERE webhook_endpoint_id = $1',
      (r) => [
        r.webhook_endpoint_id,
        box.reseal(r.secret_ciphertext, r.webhook_endpoint_id),
        r.previous_secret_ciphertext && box.reseal(r.previous_secret_ciphertext, r.webhook_endpoint_id),
      ],
    );
    await reseal<{ user_id: string; mfa_secret: string }>(
      'secondFactors',
      'SELECT user_id, mfa_secret FROM dashboard_user WHERE mfa_secret IS NOT NULL ORDER BY user_id FOR UPDATE',
      'UPDATE dashboard_user SET mfa_secret = $2 WHERE user_id = $1',
      (r) => [r.user_id, box.reseal(r.mfa_secret, mfaSealedFor(r.user_id))],
    );
    return counts;
  });
}

async function resealGatewayAccounts(manager: EntityManager, box: SecretBox, counts: Record<string, number>): Promise<void> {
  const rows: { merchant_id: string; provider: string; secrets_sealed: Record<string, string> }[] = await manager.query(
    'SELECT merchant_id, provider, secrets_sealed FROM gateway_account ORDER BY merchant_id, provider FOR UPDATE',
  );
  for (const row of rows) {
    const resealed = Object.fromEntries(
      Object.entries(row.secrets_sealed).map(([field, sealed]) => [
        field,
        box.reseal(sealed, sealedFor(row.merchant_id, row.provider, field)),
      ]),
    );
    await manager.query('UPDATE gateway_account SET secrets_sealed = $3 WHERE merchant_id = $1 AND provider = $2', [
      row.merchant_id,
      row.provider,
      JSON.stringify(resealed),
    ]);
  }
  counts.gatewayAccounts = rows.length;
}
