import { TenantScope, Transaction } from '@pcs/kernel';
import { WebhookEndpoint } from './webhook-endpoint';

/** Where webhook endpoints are kept (port; the TypeORM adapter is in persistence/). Deleted endpoints are never found. */
export abstract class WebhookEndpointRepository {
  abstract insert(tx: Transaction, endpoint: WebhookEndpoint): Promise<void>;
  abstract save(tx: Transaction, endpoint: WebhookEndpoint): Promise<void>;
  /** Every endpoint's secrets (current and previous) sealed again (`reseal` takes each and the endpoint's id), rows locked in the transaction; how many. */
  abstract resealAll(tx: Transaction, reseal: (sealed: string, webhookEndpointId: string) => string): Promise<number>;
  /** A business sees its own and its merchants' endpoints; a merchant only its own. */
  abstract findVisible(tx: Transaction, scope: TenantScope, id: string, lock?: boolean): Promise<WebhookEndpoint | null>;
  /** Disables endpoints (a receiver answered 410 Gone), saying why. */
  abstract disable(tx: Transaction, ids: readonly string[], reason: string): Promise<void>;
  abstract listVisible(tx: Transaction, scope: TenantScope): Promise<WebhookEndpoint[]>;
  /** The live, enabled endpoints an event of this merchant and type goes to. */
  abstract receiversOf(tx: Transaction, businessId: string, merchantId: string, type: string): Promise<WebhookEndpoint[]>;
  abstract findById(tx: Transaction, id: string): Promise<WebhookEndpoint | null>;
  /** The endpoints with these ids (deleted ones included), in one query. */
  abstract findByIds(tx: Transaction, ids: readonly string[]): Promise<WebhookEndpoint[]>;
}
