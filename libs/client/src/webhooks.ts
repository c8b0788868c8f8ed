import { Webhook, WebhookVerificationError } from 'standardwebhooks';

/** What a webhook carries (contract §14): the event, with its id, type and the object in its current state. */
export interface WebhookEvent {
  readonly eventId: string;
  readonly type: string;
  readonly createdAt: string;
  readonly data: Record<string, unknown>;
  readonly [field: string]: unknown;
}

export { WebhookVerificationError };

/**
 * Verifies a delivery (Standard Webhooks: `webhook-id`, `webhook-timestamp`,
 * `webhook-signature`) with the endpoint's `whsec_` secret, on the raw body as
 * received, and answers the event. Throws WebhookVerificationError for a bad
 * signature or a timestamp more than five minutes away. During a secret's
 * rotation either secret verifies (each delivery carries both signatures).
 * Deduplicate by `webhook-id`: delivery is at least once.
 */
export function verifyWebhook(secret: string, rawBody: string, headers: Record<string, string | string[] | undefined>): WebhookEvent {
  const single: Record<string, string> = {};
  for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
    const value = headers[name] ?? headers[name.toLowerCase()];
    single[name] = Array.isArray(value) ? value.join(' ') : (value ?? '');
  }
  return new Webhook(secret).verify(rawBody, single) as WebhookEvent;
}
