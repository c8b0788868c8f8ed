import * as crypto from 'node:crypto';

/**
 * A UUID (version 4 layout) derived from a name: the same name always gives
 * the same id. Used where a retried request must name the records it writes
 * exactly as the first attempt did (idempotency).
 */
export function uuidFrom(name: string): string {
  const bytes = crypto.createHash('sha256').update(name).digest().subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

declare const brand: unique symbol;

/**
 * Ids are strings at run time and distinct types at compile time: passing a
 * payer's id where a merchant's is expected does not compile. An id gets its
 * type where it enters (a validated request, a row read by a mapper, a new
 * UUID) through the `as…` functions below, and keeps it from there on. (The
 * functions are not named like the types on purpose: a parameter typed
 * `MerchantId` must not make Nest's decorator metadata point at a function.)
 */
export type Id<Kind extends string> = string & { readonly [brand]: Kind };

export type BusinessId = Id<'BusinessId'>;
export type MerchantId = Id<'MerchantId'>;
export type PayerId = Id<'PayerId'>;
export type PaymentInstrumentId = Id<'PaymentInstrumentId'>;
export type PaymentIntentId = Id<'PaymentIntentId'>;

export function asBusinessId(value: string): BusinessId;
export function asBusinessId(value: string | undefined): BusinessId | undefined;
export function asBusinessId(value: string | undefined): BusinessId | undefined {
  return value as BusinessId | undefined;
}
export function asMerchantId(value: string): MerchantId;
export function asMerchantId(value: string | undefined): MerchantId | undefined;
export function asMerchantId(value: string | undefined): MerchantId | undefined {
  return value as MerchantId | undefined;
}
export function asPayerId(value: string): PayerId;
export function asPayerId(value: string | undefined): PayerId | undefined;
export function asPayerId(value: string | undefined): PayerId | undefined {
  return value as PayerId | undefined;
}
export function asPaymentInstrumentId(value: string): PaymentInstrumentId;
export function asPaymentInstrumentId(value: string | undefined): PaymentInstrumentId | undefined;
export function asPaymentInstrumentId(value: string | undefined): PaymentInstrumentId | undefined {
  return value as PaymentInstrumentId | undefined;
}
export function asPaymentIntentId(value: string): PaymentIntentId;
export function asPaymentIntentId(value: string | undefined): PaymentIntentId | undefined;
export function asPaymentIntentId(value: string | undefined): PaymentIntentId | undefined {
  return value as PaymentIntentId | undefined;
}

/** A new random id of a kind: `newId<PayerId>()`. */
export function newId<T extends Id<string>>(): T {
  return crypto.randomUUID() as T;
}
