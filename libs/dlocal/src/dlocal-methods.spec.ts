import { DLOCAL_ACCOUNT } from './dlocal-account';
import { dlocalMethodOf } from './dlocal-methods';

const processor = (country: string, instrumentType: string, paymentMethod: string) =>
  ({
    country: { iso3: country },
    paymentInstrumentType: { name: instrumentType },
    paymentMethod: { name: paymentMethod },
    gateway: 'SANDBOX',
  }) as never;

describe("dLocal's methods", () => {
  it("maps the catalog's methods to dLocal's payment_method_id, by country and instrument type", () => {
    expect(dlocalMethodOf({ country: 'BRA', instrumentType: 'PIX', paymentMethod: 'PIX' })).toBe('PQ');
    expect(dlocalMethodOf({ country: 'URY', instrumentType: 'CREDIT_CARD', paymentMethod: 'OCA' })).toBe('CARD');
    expect(dlocalMethodOf({ country: 'ARG', instrumentType: 'BANK_TRANSFER', paymentMethod: 'BBVA' })).toBe('IO');
    expect(dlocalMethodOf({ country: 'ARG', instrumentType: 'CASH', paymentMethod: 'MERCADO_PAGO' })).toBe('RP');
    expect(dlocalMethodOf({ country: 'BRA', instrumentType: 'A2A', paymentMethod: 'SANTANDER' })).toBe('SB');
    // Not dLocal's there: Uruguayan bank transfers, Amex in Uruguay, the Mercado Pago wallet anywhere.
    expect(dlocalMethodOf({ country: 'URY', instrumentType: 'BANK_TRANSFER', paymentMethod: 'BROU' })).toBeNull();
    expect(dlocalMethodOf({ country: 'URY', instrumentType: 'CREDIT_CARD', paymentMethod: 'AMERICAN_EXPRESS' })).toBeNull();
    expect(dlocalMethodOf({ country: 'ARG', instrumentType: 'WALLETS', paymentMethod: 'MERCADO_PAGO' })).toBeNull();
  });

  it('routes by default every method of the merchant dLocal collects, and refuses the others by name', () => {
    const offered = [
      processor('URY', 'CREDIT_CARD', 'VISA'),
      processor('URY', 'BANK_TRANSFER', 'BROU'),
      processor('URY', 'WALLETS', 'MERCADO_PAGO'),
      processor('BRA', 'PIX', 'PIX'),
    ];
    expect(DLOCAL_ACCOUNT.defaultMethods(offered)).toEqual(['PIX', 'VISA']);
    expect(DLOCAL_ACCOUNT.refusal('VISA', offered)).toBeNull();
    expect(DLOCAL_ACCOUNT.refusal('BROU', offered)).toBe('dLocal does not collect BROU in URY');
    expect(DLOCAL_ACCOUNT.refusal('MERCADO_PAGO', offered)).toBe('dLocal does not collect MERCADO_PAGO in URY');
  });
});
