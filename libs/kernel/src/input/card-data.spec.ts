import fc from 'fast-check';
import { findCardData, looksLikeCardNumber, passesLuhn } from './card-data';

describe('card data detection', () => {
  it('recognises test card numbers in any common grouping', () => {
    for (const pan of [
      '4111111111111111',
      '4111 1111 1111 1111',
      '4111-1111-1111-1111',
      '5500005555555559',
      '378282246310005',
      '6011111111111117',
      '4000056655665556',
    ]) {
      expect(looksLikeCardNumber(pan)).toBe(true);
    }
    expect(looksLikeCardNumber('my card is 4111111111111111, thanks')).toBe(true);
  });

  it('leaves alone what is not a card number', () => {
    for (const value of [
      '4111111111111112',
      '123456789012',
      '12345678901234567890123',
      '+59899123456',
      '1.234.567-2',
      '0a5f6c3e-1111-4111-8111-111111111111',
      'order 2026-11-22',
    ]) {
      expect(looksLikeCardNumber(value)).toBe(false);
    }
  });

  it('never reads a UUID, alone or inside a value, as a card number (property)', () => {
    expect(looksLikeCardNumber('ref-41111111-1111-1111-8111-111111111111')).toBe(false);
    fc.assert(
      fc.property(fc.uuid(), fc.string({ maxLength: 8 }), (uuid, prefix) =>
        expect(looksLikeCardNumber(`${prefix.replace(/\d/g, '')}${uuid}`)).toBe(false),
      ),
      {
        numRuns: 5000,
      },
    );
    // A card number next to a UUID is still found.
    expect(looksLikeCardNumber('41111111-1111-1111-8111-111111111111 card 4111 1111 1111 1111')).toBe(true);
  });

  it('finds card data at any depth, in values, numbers and card-secret keys', () => {
    expect(
      findCardData({
        a: 1,
        metadata: { nested: [{ note: 'x' }, { note: '4111 1111 1111 1111' }] },
        phone: 4111111111111111,
        extra: { cvv: '123' },
      }),
    ).toEqual(['metadata.nested[1].note', 'phone', 'extra.cvv']);
    expect(findCardData({ firstName: 'Ana', amount: 100.5 })).toEqual([]);
  });

  it('agrees with a reference Luhn implementation (property)', () => {
    const reference = (digits: string) =>
      digits
        .split('')
        .reverse()
        .map(Number)
        .reduce((sum, d, i) => sum + (i % 2 ? (d * 2 > 9 ? d * 2 - 9 : d * 2) : d), 0) %
        10 ===
      0;
    fc.assert(fc.property(fc.stringMatching(/^\d{13,19}$/), (digits) => expect(passesLuhn(digits)).toBe(reference(digits))));
  });
});

describe('card data detection on hostile shapes', () => {
  it('walks a document nested 100,000 levels deep without overflowing the stack', () => {
    let deep: unknown = { note: '4111 1111 1111 1111' };
    for (let i = 0; i < 100_000; i++) deep = i % 2 ? { a: deep } : [deep];
    const found = findCardData(deep);
    expect(found).toHaveLength(1);
    expect(found[0].endsWith('.note')).toBe(true);
  });
});
