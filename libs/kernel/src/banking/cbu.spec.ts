import fc from 'fast-check';
import { cbuFrom, isValidCbu, isValidCbuAlias } from './cbu';

describe('Argentine CBU and alias', () => {
  it('accepts a CBU whose two check digits are right', () => {
    // Banco Nación (011), branch 0001
    const cbu = cbuFrom('0110001', '0000000000001');
    expect(cbu).toHaveLength(22);
    expect(isValidCbu(cbu)).toBe(true);
    expect(isValidCbu('2850590940090418135201')).toBe(true); // a published example CBU
  });

  it('refuses a CBU with any digit changed, or of another length (property)', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^\d{7}$/),
        fc.stringMatching(/^\d{13}$/),
        fc.integer({ min: 0, max: 21 }),
        fc.integer({ min: 1, max: 9 }),
        (bb, account, position, delta) => {
          const cbu = cbuFrom(bb, account);
          expect(isValidCbu(cbu)).toBe(true);
          const changed = cbu.slice(0, position) + ((Number(cbu[position]) + delta) % 10) + cbu.slice(position + 1);
          expect(isValidCbu(changed)).toBe(false);
        },
      ),
    );
    expect(isValidCbu('123')).toBe(false);
    expect(isValidCbu('28505909400904181352011')).toBe(false);
  });

  it('checks aliases', () => {
    for (const ok of ['mi.alias.mp', 'PAGO-2026', 'abc123']) expect(isValidCbuAlias(ok)).toBe(true);
    for (const bad of ['abc', 'a'.repeat(21), 'con espacio', 'ñandu.pago']) expect(isValidCbuAlias(bad)).toBe(false);
  });
});
