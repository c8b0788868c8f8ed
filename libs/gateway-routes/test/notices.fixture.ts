import type { ProcessorNotices } from '@pcs/processor-reports';

/** What the processors' route specs share: a merchant as a path names it, a payin, a notice read, and the applier that records what it was given. */
export const MERCHANT = '8D2B9F4E-1C3A-4B5D-9E6F-7A8B9C0D1E2F';
export const PAYIN = '0b7c6e2a-5d4f-4e3b-9a1c-2f8e7d6c5b4a';
export const notice = { kind: 'PAYMENT', reference: '1300000001' };

export function applier(): { service: ProcessorNotices; applied: unknown[][] } {
  const applied: unknown[][] = [];
  const service = { apply: jest.fn((...args: unknown[]) => (applied.push(args), Promise.resolve('applied'))) };
  return { service: service as unknown as ProcessorNotices, applied };
}
