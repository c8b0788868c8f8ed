import { Injectable } from '@nestjs/common';
import { SecretBox } from '@pcs/businesses';
import { RuntimeSettings } from '@pcs/config';
import type { EventType } from '@pcs/events';
import { Caller, DomainError, MerchantId, tenantScope, Transaction, UnitOfWork } from '@pcs/kernel';
import { MerchantAccess } from '@pcs/merchants';
import * as crypto from 'node:crypto';
import { WebhookEndpoint } from './webhook-endpoint';
import { WebhookEndpointRepository } from './webhook-endpoint.repository';
import { generateWebhookSecret } from './webhook-signature';
import { refuseWebhookUrl } from './webhook-url';

export interface WebhookEndpointView {
  readonly webhookEndpointId: string;
  readonly url: string;
  readonly description: string | null;
  readonly enabledEvents: readonly EventType[];
  readonly disabled: boolean;
  readonly merchantId: string | null;
  readonly createdAt: string;
}

/** The answer of create and rotate: the only time the secret is shown. */
export type WebhookEndpointWithSecret = WebhookEndpointView & { readonly secret: string };

export const DEFAULT_SECRET_GRACE_MINUTES = 1440;

/** Webhook endpoints (contract §14): a business's receives all its merchants' events, a merchant's only its own. */
@Injectable()
export class WebhookEndpointService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly access: MerchantAccess,
    private readonly secretBox: SecretBox,
    private readonly settings: RuntimeSettings,
  ) {}

  /** `secrets:rotate-master-key` (contract §22): every endpoint's secrets, current and previous, sealed again under the current master key, in the caller's transaction; how many. */
  resealSecrets(tx: Transaction): Promise<number> {
    return this.endpoints.resealAll(tx, (sealed, webhookEndpointId) => this.secretBox.reseal(sealed, webhookEndpointId));
  }

  async create(
    caller: Caller,
    command: { url: string; enabledEvents?: EventType[]; description?: string; merchantId?: MerchantId },
  ): Promise<WebhookEndpointWithSecret> {
    this.checkUrl(command.url);
    // A merchant's credentials register for their merchant; a business names one of its merchants, or none for all.
    const { merchantId } = await this.access.scopeOf(caller, command.merchantId);
    const id = crypto.randomUUID();
    const secret = generateWebhookSecret();
    const endpoint = WebhookEndpoint.create({
      webhookEndpointId: id,
      businessId: caller.businessId,
      merchantId,
      url: command.url,
      description: command.description ?? null,
      enabledEvents: command.enabledEvents ?? null,
      secretCiphertext: this.secretBox.seal(secret, id),
      createdAt: new Date(),
    });
    // In a transaction of its own: the API's audit entry commits with it (contract §29).
    await this.unitOfWork.run((tx) => this.endpoints.insert(tx, endpoint));
    return { ...webhookEndpointView(endpoint), secret };
  }

  async list(caller: Caller): Promise<WebhookEndpointView[]> {
    return (await this.endpoints.listVisible(this.unitOfWork.outside, tenantScope(caller))).map(webhookEndpointView);
  }

  async get(caller: Caller, id: string): Promise<WebhookEndpointView> {
    return webhookEndpointView(await this.load(caller, id));
  }

  async update(
    caller: Caller,
    id: string,
    change: { url?: string; enabledEvents?: EventType[]; description?: string | null; disabled?: boolean },
  ): Promise<WebhookEndpointView> {
    if (change.url !== undefined) this.checkUrl(change.url);
    return this.unitOfWork.run(async (tx) => {
      const endpoint = await this.load(caller, id, tx, true);
      endpoint.update(change, new Date());
      await this.endpoints.save(tx, endpoint);
      return webhookEndpointView(endpoint);
    });
  }

  async delete(caller: Caller, id: string): Promise<void> {
    await this.unitOfWork.run(async (tx) => {
      const endpoint = await this.load(caller, id, tx, true);
      endpoint.delete(new Date());
      await this.endpoints.save(tx, endpoint);
    });
  }

  /** A new secret; the previous one keeps signing (both signatures sent) for `graceMinutes`. */
  async rotateSecret(caller: Caller, id: string, graceMinutes = DEFAULT_SECRET_GRACE_MINUTES): Promise<WebhookEndpointWithSecret> {
    return this.unitOfWork.run(async (tx) => {
      const endpoint = await this.load(caller, id, tx, true);
      const secret = generateWebhookSecret();
      endpoint.rotate(this.secretBox.seal(secret, endpoint.id), graceMinutes, new Date());
      await this.endpoints.save(tx, endpoint);
      return { ...webhookEndpointView(endpoint), secret };
    });
  }

  /** The secrets that sign a delivery now: the current one, and the previous one during its grace period. */
  secretsOf(endpoint: WebhookEndpoint, now: Date): string[] {
    const p = endpoint.snapshot();
    const secrets = [this.secretBox.open(p.secretCiphertext, p.webhookEndpointId)];
    if (p.previousSecretCiphertext && p.previousSecretExpiresAt && p.previousSecretExpiresAt > now) {
      secrets.push(this.secretBox.open(p.previousSecretCiphertext, p.webhookEndpointId));
    }
    return secrets;
  }

  async load(caller: Caller, id: string, tx = this.unitOfWork.outside, lock = false): Promise<WebhookEndpoint> {
    const endpoint = await this.endpoints.findVisible(tx, tenantScope(caller), id, lock);
    if (!endpoint) throw new DomainError('WEBHOOK_ENDPOINT_NOT_FOUND');
    return endpoint;
  }

  private checkUrl(url: string): void {
    const refusal = refuseWebhookUrl(url, this.settings.webhooks.allowLocalhost);
    if (refusal) throw new DomainError('WEBHOOK_URL_NOT_ALLOWED', `webhooks cannot go to ${url}: ${refusal.reason}`, { ...refusal });
  }
}

export function webhookEndpointView(endpoint: WebhookEndpoint): WebhookEndpointView {
  const p = endpoint.snapshot();
  return {
    webhookEndpointId: p.webhookEndpointId,
    url: p.url,
    description: p.description,
    enabledEvents: [...endpoint.enabledEvents],
    disabled: p.disabled,
    merchantId: p.merchantId,
    createdAt: p.createdAt.toISOString(),
  };
}
