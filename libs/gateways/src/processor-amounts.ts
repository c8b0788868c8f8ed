/**
 * Amounts a processor sends, read exactly (contract §28): from the decimal text of its answer,
 * never through binary floating point. A processor's JSON is parsed with its numbers' text kept
 * (lossless-json): a number whose text a double holds exactly is a number, as JSON.parse would
 * give; one it does not (more digits than a double keeps) stays its text, which no amount reader
 * takes. An amount that cannot be read (not a decimal, more decimals than its currency has, or
 * beyond what a double holds) fails the operation that reads it, with what and where, and
 * nothing is booked from it.
 */
import { Currency, currencyExponent, decimalToScaledInteger, DomainError } from '@pcs/kernel';
import { parse } from 'lossless-json';

/** A number of a processor's answer that no double holds exactly: kept as its text. */
export class InexactNumber {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
  toJSON(): string {
    return this.text;
  }
}

/** A processor's answer with an amount that cannot be read exactly: the operation fails and books nothing. */
export class ProcessorAmountError extends DomainError {
  constructor(processor: string, detail: string) {
    super('PROCESSOR_ANSWER_UNREADABLE', `${processor}: ${detail}`, { provider: processor, detail });
    this.name = 'ProcessorAmountError';
  }
}

/** A processor's JSON answer, its numbers read from their text: exact ones as numbers, the others as InexactNumber. */
export function readProcessorJson<T>(text: string): T {
  return parse(text, null, (numberText: string) => {
    const value = Number(numberText);
    return Number.isFinite(value) && sameDecimal(numberText, String(value)) ? value : new InexactNumber(numberText);
  }) as T;
}

/**
 * An amount of a processor's answer (a decimal number in major units) in minor units of
 * `currency`; ProcessorAmountError naming `what` when it is not exactly such an amount.
 */
export function processorMinor(processor: string, value: unknown, currency: Currency, what: string): number {
  const minor = typeof value === 'number' ? decimalToScaledInteger(value, currencyExponent(currency)) : null;
  if (minor === null)
    throw new ProcessorAmountError(
      processor,
      `${what} ${value instanceof InexactNumber ? value.text : JSON.stringify(value)} is not an amount in ${currency}`,
    );
  return minor;
}

/** Whether two decimal texts (as JSON writes numbers) have the same value: 1.10 and 1.1, 1e2 and 100. */
function sameDecimal(a: string, b: string): boolean {
  const x = canonical(a);
  const y = canonical(b);
  return x !== null && y !== null && x.sign === y.sign && x.digits === y.digits && x.exponent === y.exponent;
}

function canonical(text: string): { sign: string; digits: string; exponent: number } | null {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!match) return null;
  const [, sign, whole, fraction = '', exp = '0'] = match;
  let digits = (whole + fraction).replace(/^0+/, '');
  let exponent = Number(exp) - fraction.length;
  if (digits === '') return { sign: '', digits: '0', exponent: 0 };
  const trailing = /0+$/.exec(digits)?.[0].length ?? 0;
  digits = digits.slice(0, digits.length - trailing);
  exponent += trailing;
  return { sign, digits, exponent };
}
