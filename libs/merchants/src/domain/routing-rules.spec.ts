import { Currency, DomainError } from '@pcs/kernel';
import { routeOf, routingRulesFrom, routingRulesView } from './routing-rules';

/**
 * Routing rules (contract §26): read from the configuration request with a precise errorId for each
 * mistake, matched first-wins on method, country, currency and an amount range, and a split drawn
 * by weight, deterministically per attempt.
 */
describe('routing rules', () => {
  const codeOf = (request: Parameters<typeof routingRulesFrom>[0]) => {
    try {
      routingRulesFrom(request);
      return null;
    } catch (error) {
      return (error as DomainError).code;
    }
  };

  it('refuses each mistake with its own errorId', () => {
    expect(codeOf([{ paymentMethod: 'VISA', processors: [] }])).toBe('ROUTING_PROCESSORS_EMPTY');
    expect(codeOf([{ paymentMethod: 'VISA', processors: ['DLOCAL', 'dlocal'] }])).toBe('ROUTING_PROCESSORS_EMPTY');
    expect(codeOf([{ paymentMethod: 'VISA', processors: ['DLOCAL', 'SANDBOX'], split: [1] }])).toBe('ROUTING_SPLIT_MISMATCH');
    expect(codeOf([{ paymentMethod: 'VISA', processors: ['DLOCAL', 'SANDBOX'], split: [1, 2.5] }])).toBe('ROUTING_SPLIT_MISMATCH');
    expect(codeOf([{ paymentMethod: 'VISA', processors: ['DLOCAL'], split: [101] }])).toBe('ROUTING_SPLIT_MISMATCH');
    expect(codeOf([{ paymentMethod: 'VISA', currency: 'UYU', minAmount: 2, maxAmount: 1, processors: ['DLOCAL'] }])).toBe(
      'ROUTING_AMOUNT_RANGE_INVERTED',
    );
    expect(codeOf([{ paymentMethod: 'VISA', maxAmount: 1, processors: ['DLOCAL'] }])).toBe('ROUTING_RULE_INVALID');
    expect(codeOf([{ paymentMethod: 'VISA', currency: 'XYZ', processors: ['DLOCAL'] }])).toBe('ROUTING_RULE_INVALID');
    expect(codeOf([{ paymentMethod: 'VISA', currency: 'UYU', minAmount: 1.234, processors: ['DLOCAL'] }])).toBe('ROUTING_RULE_INVALID');
    expect(codeOf(Array.from({ length: 51 }, () => ({ paymentMethod: 'VISA', processors: ['DLOCAL'] })))).toBe('ROUTING_RULE_INVALID');
  });

  it('keeps amounts in minor units and shows them back as sent', () => {
    const request = [{ paymentMethod: 'visa', country: 'ury', currency: 'uyu', minAmount: 10.5, maxAmount: 1000, processors: ['dlocal'] }];
    const [rule] = routingRulesFrom(request);
    expect(rule).toEqual({
      paymentMethod: 'VISA',
      country: 'URY',
      currency: 'UYU',
      minAmount: 1050,
      maxAmount: 100000,
      processors: ['DLOCAL'],
      split: null,
    });
    expect(routingRulesView([rule])).toEqual([
      { paymentMethod: 'VISA', country: 'URY', currency: 'UYU', minAmount: 10.5, maxAmount: 1000, processors: ['DLOCAL'] },
    ]);
  });

  it('takes the first rule that matches, both ends of the range included', () => {
    const rules = routingRulesFrom([
      { paymentMethod: 'VISA', currency: 'UYU', minAmount: 100, maxAmount: 200, processors: ['MERCADO_PAGO', 'DLOCAL'] },
      { paymentMethod: 'VISA', country: 'URY', processors: ['DLOCAL'] },
    ]);
    const facts = (amount: number, country = 'URY') => ({ paymentMethod: 'VISA', country, currency: Currency.UYU, amount });
    expect(routeOf(rules, facts(10000), 0.5)).toEqual({ rule: 0, processors: ['MERCADO_PAGO', 'DLOCAL'] });
    expect(routeOf(rules, facts(20000), 0.5)?.rule).toBe(0);
    expect(routeOf(rules, facts(20001), 0.5)).toEqual({ rule: 1, processors: ['DLOCAL'] });
    expect(routeOf(rules, facts(20001, 'ARG'), 0.5)).toBeNull();
    expect(routeOf(rules, { ...facts(10000), paymentMethod: 'OCA' }, 0.5)).toBeNull();
  });

  it('splits by weight: the draw picks the first processor, the rest follow in order, and many draws divide as the weights', () => {
    const rules = routingRulesFrom([{ paymentMethod: 'VISA', processors: ['DLOCAL', 'MERCADO_PAGO', 'SANDBOX'], split: [70, 20, 10] }]);
    const facts = { paymentMethod: 'VISA', country: 'URY', currency: Currency.UYU, amount: 100 };
    expect(routeOf(rules, facts, 0)?.processors).toEqual(['DLOCAL', 'MERCADO_PAGO', 'SANDBOX']);
    expect(routeOf(rules, facts, 0.75)?.processors).toEqual(['MERCADO_PAGO', 'DLOCAL', 'SANDBOX']);
    expect(routeOf(rules, facts, 0.95)?.processors).toEqual(['SANDBOX', 'DLOCAL', 'MERCADO_PAGO']);
    const firsts = new Map<string, number>();
    for (let i = 0; i < 1000; i++) {
      const first = routeOf(rules, facts, i / 1000)!.processors[0];
      firsts.set(first, (firsts.get(first) ?? 0) + 1);
    }
    expect(Object.fromEntries(firsts)).toEqual({ DLOCAL: 700, MERCADO_PAGO: 200, SANDBOX: 100 });
  });
});
