import fc from 'fast-check';
import { pixKeyKind } from './pix-key';
import { isValidCnpj, isValidCpf, isValidCuit, isValidUruguayanCedula, isValidUruguayanRut } from './tax-ids';

/** One digit changed by `delta` (1–9) at `position`. */
const changed = (value: string, position: number, delta: number) =>
  value.slice(0, position) + ((Number(value[position]) + delta) % 10) + value.slice(position + 1);

describe('tax and identity numbers', () => {
  it.each([
    ['CPF', isValidCpf, ['52998224725', '11144477735']],
    ['CNPJ', isValidCnpj, ['11222333000181', '33000167000101']],
    // AFIP's layout: 20-12345678-6; Mercado Libre S.R.L., 30-70308853-4.
    ['CUIT', isValidCuit, ['20123456786', '30703088534']],
    ['RUT', isValidUruguayanRut, ['211003420017']],
  ] as const)('accepts published %s numbers and refuses any single digit changed in them', (_, valid, examples) => {
    for (const example of examples) {
      expect(valid(example)).toBe(true);
      fc.assert(
        fc.property(fc.integer({ min: 0, max: example.length - 1 }), fc.integer({ min: 1, max: 9 }), (position, delta) => {
          // A changed CUIT or RUT prefix may fall outside the allowed prefixes: refused either way.
          expect(valid(changed(example, position, delta))).toBe(false);
        }),
        { numRuns: 300 },
      );
    }
  });

  it('checks a Uruguayan cédula (mod 10: a digit under an even weight moved by 5 keeps its check digit, as the scheme allows)', () => {
    expect(isValidUruguayanCedula('12345672')).toBe(true);
    expect(isValidUruguayanCedula('1234567')).toBe(false);
    for (const wrong of ['12345670', '12345673', '22345672', '12345682']) expect(isValidUruguayanCedula(wrong)).toBe(false);
  });

  it('refuses runs of one digit, wrong lengths and separators (callers strip them)', () => {
    expect(isValidCpf('00000000000')).toBe(false);
    expect(isValidCnpj('11111111111111')).toBe(false);
    expect(isValidCpf('529.982.247-25')).toBe(false);
    expect(isValidCuit('2012345678')).toBe(false);
    expect(isValidUruguayanRut('221003420017')).toBe(false); // department 22 does not exist
  });
});

describe('PIX keys (the DICT formats)', () => {
  it('tells each kind of key', () => {
    expect(pixKeyKind('52998224725')).toBe('CPF');
    expect(pixKeyKind('11222333000181')).toBe('CNPJ');
    expect(pixKeyKind('+5511987654321')).toBe('PHONE');
    expect(pixKeyKind('+551133334444')).toBe('PHONE');
    expect(pixKeyKind('pagos@loja.com.br')).toBe('EMAIL');
    expect(pixKeyKind('123e4567-e89b-42d3-a456-426614174000')).toBe('EVP');
  });

  it('refuses what is no key', () => {
    for (const bad of [
      '52998224724', // a CPF with a wrong check digit
      '5511987654321', // a phone without +
      '+15551234567', // not Brazilian
      'Pagos@Loja.com.br', // DICT keeps e-mails in lower case
      `${'a'.repeat(70)}@loja.com.br`, // over 77 characters
      '123E4567-E89B-42D3-A456-426614174000', // DICT keeps random keys in lower case
      '',
      'chave',
    ])
      expect(pixKeyKind(bad)).toBeNull();
  });
});
