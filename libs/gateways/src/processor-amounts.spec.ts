import { Currency, currencyExponent, DomainError } from '@pcs/kernel';
import fc from 'fast-check';
import { InexactNumber, processorMinor, ProcessorAmountError, readProcessorJson } from './processor-amounts';

/**
 * A processor's amounts read exactly (contract §28): from their decimal text, never through a
 * double's rounding. JSON.parse reads `1220.50000000000000001` as 1220.5 and `Math.round(x * 100)`
 * reads 16.985 as 16.99 (or 16.98): both book an amount the processor never said.
 */
describe('processor amounts, read exactly (contract §28)', () => {
  it('keeps a number a double holds exactly and the text of one it does not', () => {
    const answer = readProcessorJson<Record<string, unknown>>(
      '{"exact":1220.5,"trailing":1220.50,"exponent":1.5e2,"long":1220.50000000000000001,"huge":12345678901234567890,"id":7}',
    );
    expect(answer).toMatchObject({ exact: 1220.5, trailing: 1220.5, exponent: 150, id: 7 });
    expect(answer.long).toEqual(new InexactNumber('1220.50000000000000001'));
    expect(answer.huge).toEqual(new InexactNumber('12345678901234567890'));
    // What JSON.parse would have booked instead.
    expect((JSON.parse('{"long":1220.50000000000000001}') as { long: number }).long).toBe(1220.5);
  });

  it('reads an amount in minor units of its currency, and refuses one that is not exactly such an amount, naming what', () => {
    expect(processorMinor('MERCADO_PAGO', 1220.5, Currency.UYU, 'refund 7 amount')).toBe(122050);
    expect(processorMinor('DLOCAL', 0, Currency.BRL, 'amount')).toBe(0);
    expect(processorMinor('DLOCAL', 1000, Currency.CLP, 'amount')).toBe(1000);
    const refusals: Array<[unknown, Currency, string]> = [
      [16.985, Currency.UYU, '16.985'],
      [1000.5, Currency.CLP, '1000.5'],
      ['12.00', Currency.UYU, '"12.00"'],
      [null, Currency.UYU, 'null'],
      [new InexactNumber('1220.50000000000000001'), Currency.UYU, '1220.50000000000000001'],
    ];
    for (const [value, currency, shown] of refusals) {
      let thrown: unknown;
      try {
        processorMinor('MERCADO_PAGO', value, currency, 'payment 42 installment_amount');
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ProcessorAmountError);
      expect(thrown).toBeInstanceOf(DomainError);
      expect((thrown as DomainError).code).toBe('PROCESSOR_ANSWER_UNREADABLE');
      expect((thrown as Error).message).toContain(`MERCADO_PAGO: payment 42 installment_amount ${shown} is not an amount in ${currency}`);
    }
  });

  it('reads back every amount a processor can write, in any currency’s decimals (property)', () => {
    const currencies = [Currency.UYU, Currency.BRL, Currency.ARS, Currency.USD, Currency.CLP, Currency.PYG];
    fc.assert(
      fc.property(
        fc.constantFrom(...currencies),
        fc.integer({ min: 0, max: 99_999_999_999_99 }),
        fc.boolean(),
        (currency, minor, padded) => {
          const exponent = currencyExponent(currency);
          const whole = String(minor).padStart(exponent + 1, '0');
          let text = exponent === 0 ? whole : `${whole.slice(0, -exponent)}.${whole.slice(-exponent)}`;
          // A processor may or may not write the trailing zeros of its decimals.
          if (!padded && exponent > 0) text = text.replace(/\.?0+$/, '');
          const { amount } = readProcessorJson<{ amount: unknown }>(`{"amount":${text}}`);
          expect(processorMinor('DLOCAL', amount, currency, 'amount')).toBe(minor);
        },
      ),
    );
  });
});
