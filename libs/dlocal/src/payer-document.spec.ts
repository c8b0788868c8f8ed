import { checkPayerDocument } from './payer-document';

describe('the documents dLocal takes from payers', () => {
  it('takes a Uruguayan cédula or RUT with their check digits, separators ignored', () => {
    expect(checkPayerDocument('URY', '1.234.567-2')).toEqual({ ok: true, document: '12345672' });
    expect(checkPayerDocument('URY', '211003420017')).toEqual({ ok: true, document: '211003420017' });
    expect(checkPayerDocument('URY', '1.234.567-3').ok).toBe(false);
  });

  it('takes an Argentine DNI or a CUIT/CUIL', () => {
    expect(checkPayerDocument('ARG', '30.123.456')).toEqual({ ok: true, document: '30123456' });
    expect(checkPayerDocument('ARG', '20-30123456-3').ok).toBe(true);
    expect(checkPayerDocument('ARG', '20-30123456-4').ok).toBe(false);
    expect(checkPayerDocument('ARG', '123456').ok).toBe(false);
  });

  it('takes a Brazilian CPF or CNPJ with their check digits', () => {
    expect(checkPayerDocument('BRA', '530.333.155-50')).toEqual({ ok: true, document: '53033315550' });
    expect(checkPayerDocument('BRA', '11.222.333/0001-81')).toEqual({ ok: true, document: '11222333000181' });
    expect(checkPayerDocument('BRA', '530.333.155-51').ok).toBe(false);
    expect(checkPayerDocument('BRA', '111.111.111-11').ok).toBe(false);
  });

  it('refuses a missing document and a passport, naming what serves', () => {
    expect(checkPayerDocument('BRA', null)).toMatchObject({ ok: false, reason: expect.stringContaining('CPF or a CNPJ') });
    expect(checkPayerDocument('URY', 'AB123456', 'PASSPORT')).toMatchObject({ ok: false, reason: expect.stringContaining('passport') });
  });
});
