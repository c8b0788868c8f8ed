import { asMerchantId, asPayerId, MerchantId, newId, PayerId, uuidFrom } from './ids';

/**
 * The compile-time half of these checks runs in `npm run lint` (tsc over the
 * specs): each @ts-expect-error must meet a type error, or tsc fails.
 */
describe('typed ids', () => {
  it('keeps one kind of id from standing in for another', () => {
    const merchantOnly = (id: MerchantId) => id;
    const payer: PayerId = asPayerId('3f1c2a9e-0000-4000-8000-000000000001');
    // @ts-expect-error a payer's id is not a merchant's id
    merchantOnly(payer);
    // @ts-expect-error a plain string is not an id until it is read as one
    merchantOnly('3f1c2a9e-0000-4000-8000-000000000002');
    expect(merchantOnly(asMerchantId('3f1c2a9e-0000-4000-8000-000000000002'))).toBe('3f1c2a9e-0000-4000-8000-000000000002');
  });

  it('makes new ids as UUIDs, and derives the same id from the same name', () => {
    expect(newId<PayerId>()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(uuidFrom('scope\nkey')).toBe(uuidFrom('scope\nkey'));
    expect(uuidFrom('scope\nkey')).not.toBe(uuidFrom('scope\nkey2'));
    expect(uuidFrom('x')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
