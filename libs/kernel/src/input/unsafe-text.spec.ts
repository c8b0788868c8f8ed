import fc from 'fast-check';
import { findUnsafeInput, unsafeTextReason } from './unsafe-text';

describe('unsafe text', () => {
  it('names NUL characters and unpaired surrogates, in values and in keys, by path', () => {
    expect(
      findUnsafeInput({ firstName: 'a\u0000b', address: { city: 'ok', street: '\ud800' }, tags: ['x', '\udc00y'], ['k\u0000']: 1 }),
    ).toEqual([
      { field: 'firstName', reason: 'contains a NUL character' },
      { field: 'address.street', reason: 'contains an unpaired UTF-16 surrogate' },
      { field: 'tags[1]', reason: 'contains an unpaired UTF-16 surrogate' },
      { field: 'k\u0000', reason: 'field name contains a NUL character' },
    ]);
  });

  it('refuses the keys of the object machinery at any depth', () => {
    const parsed = JSON.parse('{"constructor":{"prototype":{}},"a":{"__proto__":{"x":1}}}');
    expect(findUnsafeInput(parsed).map((p) => p.field)).toEqual(['constructor', 'constructor.prototype', 'a.__proto__']);
  });

  it('accepts every well-formed string, astral characters and accents included (property)', () => {
    expect(unsafeTextReason('Ñandú 😀 ✓')).toBeNull();
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (text) =>
        expect(unsafeTextReason(text.replaceAll('\u0000', ''))).toBeNull(),
      ),
      { numRuns: 2000 },
    );
  });

  it('prefixes query fields', () => {
    expect(findUnsafeInput({ searchTerm: '\u0000' }, 'query')).toEqual([{ field: 'query.searchTerm', reason: 'contains a NUL character' }]);
  });
});
