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
