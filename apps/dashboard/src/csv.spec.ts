import { csvField } from './csv';

describe('the CSV export', () => {
  it('quotes what needs quoting and defuses formulas', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('=HYPERLINK("http://evil")')).toBe(`"'=HYPERLINK(""http://evil"")"`);
    for (const start of ['+', '-', '@', '\t']) expect(csvField(`${start}1`)).toBe(`'${start}1`);
    expect(csvField(-12.5)).toBe('-12.5');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
  });
});
