import type { TenantScope } from '@pcs/kernel';
import type { EntityManager } from 'typeorm';
import { WebhookEndpoint } from './webhook-endpoint';

/** Where webhook endpoints are kept (port; the TypeORM adapter is in persistence/). Deleted endpoints are never found. */
export abstract class WebhookEndpointRepository {
  abstract insert(manager: EntityManager, endpoint: WebhookEndpoint): Promise<void>;
  abstract save(manager: EntityManager, endpoint: WebhookEndpoint): Promise<void>;
  /** Every endpoint's secrets (current and previous) sealed again (`reseal` takes each and the endpoint's id), rows locked in the manager's transaction; how many. */
  abstract resealAll(manager: EntityManager, reseal: (sealed: string, webhookEndpointId: string) => string): Promise<number>;
  /** A business sees its own and its merchants' endpoints; a merchant only its own. */
  abstract findVisible(manager: EntityManager, scope: TenantScope, id: string, lock?: boolean): Promise<WebhookEndpoint | null>;
  /** Disables endpoints (a receiver answered 410 Gone), saying why. */
  abstract disable(manager: EntityManager, ids: readonly string[], reason: string): Promise<void>;
  abstract listVisible(manager: EntityManager, scope: TenantScope): Promise<WebhookEndpoint[]>;
  /** The live, enabled endpoints an event of this merchant and type goes to. */
  abstract receiversOf(manager: EntityManager, businessId: string, merchantId: string, type: string): Promise<WebhookEndpoint[]>;
  abstract findById(manager: EntityManager, id: string): Promise<WebhookEndpoint | null>;
  /** The endpoints with these ids (deleted ones included), in one query. */
  abstract findByIds(manager: EntityManager, ids: readonly string[]): Promise<WebhookEndpoint[]>;
}
