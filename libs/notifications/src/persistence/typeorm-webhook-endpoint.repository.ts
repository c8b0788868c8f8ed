import { Injectable } from '@nestjs/common';
import type { EventType } from '@pcs/events';
import { managerOf, scopeWhere } from '@pcs/database';
import { TenantScope, Transaction } from '@pcs/kernel';
import { In, IsNull } from 'typeorm';
import { WebhookEndpoint } from '../webhooks/webhook-endpoint';
import { WebhookEndpointRepository } from '../webhooks/webhook-endpoint.repository';
import { WebhookEndpointOrmEntity } from './webhook-endpoint.orm-entity';

const fromRow = (row: WebhookEndpointOrmEntity) =>
  WebhookEndpoint.restore({ ...row, enabledEvents: row.enabledEvents as EventType[] | null });
const toRow = (endpoint: WebhookEndpoint) => Object.assign(new WebhookEndpointOrmEntity(), endpoint.snapshot());

@Injectable()
export class TypeOrmWebhookEndpointRepository extends WebhookEndpointRepository {
  async resealAll(tx: Transaction, reseal: (sealed: string, webhookEndpointId: string) => string): Promise<number> {
    const manager = managerOf(tx);
    const rows = await manager.query<{ webhook_endpoint_id: string; secret_ciphertext: string; previous: string | null }[]>(
      'SELECT webhook_endpoint_id, secret_ciphertext, previous_secret_ciphertext AS previous FROM webhook_endpoint ORDER BY webhook_endpoint_id FOR UPDATE',
    );
    for (const row of rows) {
      await manager.query(
        'UPDATE webhook_endpoint SET secret_ciphertext = $2, previous_secret_ciphertext = $3 WHERE webhook_endpoint_id = $1',
        [
          row.webhook_endpoint_id,
          reseal(row.secret_ciphertext, row.webhook_endpoint_id),
          row.previous && reseal(row.previous, row.webhook_endpoint_id),
        ],
      );
    }
    return rows.length;
  }

  async insert(tx: Transaction, endpoint: WebhookEndpoint): Promise<void> {
    const manager = managerOf(tx);
    await manager.insert(WebhookEndpointOrmEntity, toRow(endpoint));
  }

  async save(tx: Transaction, endpoint: WebhookEndpoint): Promise<void> {
    const manager = managerOf(tx);
    await manager.save(toRow(endpoint));
  }

  async findVisible(tx: Transaction, scope: TenantScope, id: string, lock = false): Promise<WebhookEndpoint | null> {
    const manager = managerOf(tx);
    const row = await manager.findOne(WebhookEndpointOrmEntity, {
      where: { webhookEndpointId: id, ...scopeWhere(scope), deletedAt: IsNull() },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    return row ? fromRow(row) : null;
  }

  async disable(tx: Transaction, ids: readonly string[], reason: string): Promise<void> {
    const manager = managerOf(tx);
    await manager.query(
      `UPDATE webhook_endpoint SET disabled = true, disabled_reason = $2, updated_at = now() WHERE webhook_endpoint_id = ANY($1::uuid[])`,
      [ids, reason],
    );
  }

  async listVisible(tx: Transaction, scope: TenantScope): Promise<WebhookEndpoint[]> {
    const manager = managerOf(tx);
    const rows = await manager.find(WebhookEndpointOrmEntity, {
      where: { ...scopeWhere(scope), deletedAt: IsNull() },
      order: { createdAt: 'ASC', webhookEndpointId: 'ASC' },
    });
    return rows.map(fromRow);
  }

  async receiversOf(tx: Transaction, businessId: string, merchantId: string, type: string): Promise<WebhookEndpoint[]> {
    const manager = managerOf(tx);
    const rows = await manager
      .createQueryBuilder(WebhookEndpointOrmEntity, 'w')
      .where('w.business_id = :businessId AND (w.merchant_id IS NULL OR w.merchant_id = :merchantId)', { businessId, merchantId })
      .andWhere('w.deleted_at IS NULL AND NOT w.disabled')
      .andWhere('(w.enabled_events IS NULL OR :type = ANY (w.enabled_events))', { type })
      .getMany();
    return rows.map(fromRow);
  }

  async findById(tx: Transaction, id: string): Promise<WebhookEndpoint | null> {
    const manager = managerOf(tx);
    const row = await manager.findOne(WebhookEndpointOrmEntity, { where: { webhookEndpointId: id } });
    return row ? fromRow(row) : null;
  }

  async findByIds(tx: Transaction, ids: readonly string[]): Promise<WebhookEndpoint[]> {
    const manager = managerOf(tx);
    if (ids.length === 0) return [];
    return (await manager.find(WebhookEndpointOrmEntity, { where: { webhookEndpointId: In([...ids]) } })).map(fromRow);
  }
}
