import { sameSecret } from './same-secret';

describe('sameSecret', () => {
  it('is true only for the same string', () => {
    expect(sameSecret('abc-DEF_123', 'abc-DEF_123')).toBe(true);
    expect(sameSecret('abc-DEF_124', 'abc-DEF_123')).toBe(false);
    expect(sameSecret('', 'abc')).toBe(false);
  });

  it('answers false, never throws, for a string of the right length in characters but not in bytes', () => {
    const expected = 'a'.repeat(43);
    const multiByte = 'é'.repeat(43);
    expect(multiByte.length).toBe(expected.length);
    expect(() => sameSecret(multiByte, expected)).not.toThrow();
    expect(sameSecret(multiByte, expected)).toBe(false);
    expect(sameSecret('😀'.repeat(21) + 'a', expected)).toBe(false);
  });

  it('answers false for what is not a string', () => {
    for (const given of [null, undefined, 42, ['a'], { a: 1 }]) expect(sameSecret(given, 'a')).toBe(false);
  });
});
