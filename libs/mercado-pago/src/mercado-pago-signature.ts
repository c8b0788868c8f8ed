import * as crypto from 'node:crypto';

/** How far a notification's `ts` may be from our clock. */
export const NOTIFICATION_TOLERANCE_SECONDS = 300;

export interface NotificationSignatureInput {
  /** The `x-signature` header: `ts=<ts>,v1=<hex>`. */
  readonly signature: string | undefined;
  /** The `x-request-id` header. */
  readonly requestId: string | undefined;
  /** The `data.id` query parameter. */
  readonly dataId: string | undefined;
}

/**
 * The manifest Mercado Pago signs (its notifications documentation, contract
 * §16): `id:<data.id>;request-id:<x-request-id>;ts:<ts>;`, `data.id`
 * lower-cased when it is alphanumeric, and a part whose value is absent left out.
 */
export function notificationManifest(dataId: string | undefined, requestId: string | undefined, ts: string): string {
  const id = dataId !== undefined && /^[a-z0-9]+$/i.test(dataId) ? dataId.toLowerCase() : dataId;
  return `${id !== undefined && id !== '' ? `id:${id};` : ''}${requestId ? `request-id:${requestId};` : ''}ts:${ts};`;
}

/** Signs as Mercado Pago does: the `x-signature` header's value for a notification (the stand-in signs with this too). */
export function signNotification(secret: string, dataId: string | undefined, requestId: string | undefined, ts: string): string {
  const v1 = crypto
    .createHmac('sha256', secret)
    .update(notificationManifest(dataId, requestId, ts))
    .digest('hex');
  return `ts=${ts},v1=${v1}`;
}

/**
 * Whether a notification is Mercado Pago's, for the merchant whose webhook
 * secret this is: the HMAC over the manifest matches `v1` (compared in
 * constant time), and `ts` (seconds, or milliseconds) is within the tolerance.
 */
export function verifyNotification(secret: string, input: NotificationSignatureInput, now = Date.now()): boolean {
  if (!input.signature) return false;
  const parts = new Map(
    input.signature.split(',').map((part) => {
      const at = part.indexOf('=');
      return [part.slice(0, at).trim(), part.slice(at + 1).trim()] as const;
    }),
  );
  const ts = parts.get('ts');
  const v1 = parts.get('v1');
  if (!ts || !v1 || !/^\d{1,16}$/.test(ts) || !/^[0-9a-f]{64}$/i.test(v1)) return false;
  const seconds = ts.length > 11 ? Number(ts) / 1000 : Number(ts);
  if (Math.abs(now / 1000 - seconds) > NOTIFICATION_TOLERANCE_SECONDS) return false;
  const expected = crypto
    .createHmac('sha256', secret)
    .update(notificationManifest(input.dataId, input.requestId, ts))
    .digest();
  const given = Buffer.from(v1, 'hex');
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}
