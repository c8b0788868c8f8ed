import fc from 'fast-check';
import { DocumentType, uruguayanCedulaCheckDigit } from '@pcs/kernel';
import { checkIdentityDocument } from './identity-document';

describe('identity documents', () => {
  it('accepts Uruguayan cédulas with a valid check digit, in the usual spellings', () => {
    // 1.234.567-2: 1·2 + 2·9 + 3·8 + 4·7 + 5·6 + 6·3 + 7·4 = 148 → (10 − 8) mod 10 = 2
    expect(uruguayanCedulaCheckDigit('1234567')).toBe(2);
    for (const spelling of ['1.234.567-2', '12345672', '1234567-2']) {
      expect(checkIdentityDocument(DocumentType.IDENTITY_DOCUMENT, spelling, 'URY')).toEqual({ ok: true, number: '12345672' });
    }
    // 0987654: 0·2 + 9·9 + 8·8 + 7·7 + 6·6 + 5·3 + 4·4 = 261 → 9
    expect(checkIdentityDocument(DocumentType.IDENTITY_DOCUMENT, '987.654-9', 'URY')).toEqual({ ok: true, number: '9876549' });
  });

  it('refuses a cédula with a wrong check digit or a wrong length', () => {
    expect(checkIdentityDocument(DocumentType.IDENTITY_DOCUMENT, '1.234.567-3', 'URY')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('check digit'),
    });
    expect(checkIdentityDocument(DocumentType.IDENTITY_DOCUMENT, '123456', 'URY').ok).toBe(false);
    expect(checkIdentityDocument(DocumentType.IDENTITY_DOCUMENT, '123456789', 'URY').ok).toBe(false);
  });

  it('a cédula with the computed check digit always passes; any other digit fails (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 100_000, max: 9_999_999 }), fc.integer({ min: 0, max: 9 }), (base, digit) => {
        const valid = uruguayanCedulaCheckDigit(String(base));
        expect(checkIdentityDocument(DocumentType.IDENTITY_DOCUMENT, `${base}${digit}`, 'URY').ok).toBe(digit === valid);
      }),
    );
  });

  it('accepts an Argentine DNI of 7 or 8 digits, dots allowed', () => {
    expect(checkIdentityDocument(DocumentType.DNI, '30.123.456', 'ARG')).toEqual({ ok: true, number: '30123456' });
    expect(checkIdentityDocument(DocumentType.DNI, '7123456', null)).toEqual({ ok: true, number: '7123456' });
    expect(checkIdentityDocument(DocumentType.IDENTITY_DOCUMENT, '30123456', 'ARG')).toEqual({ ok: true, number: '30123456' });
    for (const bad of ['123456', '123456789', '30-123-456', 'ABC12345'])
      expect(checkIdentityDocument(DocumentType.DNI, bad, 'ARG').ok).toBe(false);
  });

  it('accepts passports of 6–20 letters and digits, upper-cased', () => {
    expect(checkIdentityDocument(DocumentType.PASSPORT, 'ab123456', 'URY')).toEqual({ ok: true, number: 'AB123456' });
    for (const bad of ['AB123', 'A'.repeat(21), 'AB-123456'])
      expect(checkIdentityDocument(DocumentType.PASSPORT, bad, null).ok).toBe(false);
  });

  it('accepts a Brazilian CPF or CNPJ with its check digits, separators allowed', () => {
    expect(checkIdentityDocument(DocumentType.IDENTITY_DOCUMENT, '530.333.155-50', 'BRA')).toEqual({ ok: true, number: '53033315550' });
    expect(checkIdentityDocument(DocumentType.IDENTITY_DOCUMENT, '11.222.333/0001-81', 'BRA')).toEqual({
      ok: true,
      number: '11222333000181',
    });
    for (const bad of ['530.333.155-51', '111.111.111-11', '11222333000182', '5303331555', 'CPF53033315550'])
      expect(checkIdentityDocument(DocumentType.IDENTITY_DOCUMENT, bad, 'BRA').ok).toBe(false);
  });

  it('needs the country to check an IDENTITY_DOCUMENT', () => {
    expect(checkIdentityDocument(DocumentType.IDENTITY_DOCUMENT, '12345672', null)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('country'),
    });
  });
});
