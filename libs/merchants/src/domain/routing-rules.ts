import { Currency, CURRENCIES, DomainError, Money, MoneyError } from '@pcs/kernel';

/** At most this many rules, and processors in a rule (there are three processors today; room for more). */
export const MAX_ROUTING_RULES = 50;
export const MAX_RULE_PROCESSORS = 5;

/**
 * One routing rule of a merchant (contract §26): the attempts it matches (a payment method, and
 * optionally a country, a currency and an amount range in minor units of that currency, both ends
 * included) and the processors that serve them, tried in order, or split by weight.
 */
export interface RoutingRule {
  readonly paymentMethod: string;
  readonly country: string | null;
  readonly currency: Currency | null;
  /** Minor units of `currency` (a range needs one). */
  readonly minAmount: number | null;
  readonly maxAmount: number | null;
  /** Providers, as the gateway registry names them (SANDBOX, MERCADO_PAGO, DLOCAL), each once. */
  readonly processors: readonly string[];
  /** Weights, one per processor; null: in order. */
  readonly split: readonly number[] | null;
}

/** The rule as the configuration request sends it: amounts are wire amounts (major units). */
export interface RoutingRuleRequest {
  readonly paymentMethod: string;
  readonly country?: string;
  readonly currency?: string;
  readonly minAmount?: number;
  readonly maxAmount?: number;
  readonly processors: readonly string[];
  readonly split?: readonly number[];
}

/** What one attempt is, as routing reads it; `amount` in minor units of `currency`. */
export interface RoutingFacts {
  readonly paymentMethod: string;
  readonly country: string;
  readonly currency: Currency;
  readonly amount: number;
}

function ruleInvalid(reason: string, reasonEs: string): DomainError {
  return new DomainError('ROUTING_RULE_INVALID', reason, { reason, reasonEs });
}

/**
 * Reads the requested rules, refusing each mistake with its own errorId (contract §26): an empty or
 * repeated processor list ROUTING_PROCESSORS_EMPTY, weights that are not one whole 1–100 per processor
 * ROUTING_SPLIT_MISMATCH, an amount range upside down ROUTING_AMOUNT_RANGE_INVERTED, anything else
 * (a currency unknown, a range without a currency, too many rules) ROUTING_RULE_INVALID. Whether the
 * merchant is connected to each processor is the payments context's to check (it knows the accounts).
 */
export function routingRulesFrom(request: readonly RoutingRuleRequest[]): RoutingRule[] {
  if (request.length > MAX_ROUTING_RULES)
    throw ruleInvalid(`at most ${MAX_ROUTING_RULES} rules`, `como máximo ${MAX_ROUTING_RULES} reglas`);
  return request.map((rule, index) => {
    const processors = rule.processors.map((p) => p.trim().toUpperCase());
    if (processors.length === 0 || processors.length > MAX_RULE_PROCESSORS || new Set(processors).size !== processors.length)
      throw new DomainError('ROUTING_PROCESSORS_EMPTY', undefined, { rule: String(index) });
    if (
      rule.split !== undefined &&
      (rule.split.length !== processors.length || rule.split.some((w) => !Number.isInteger(w) || w < 1 || w > 100))
    )
      throw new DomainError('ROUTING_SPLIT_MISMATCH', undefined, { rule: String(index), count: String(processors.length) });
    const currency = rule.currency === undefined ? null : rule.currency.toUpperCase();
    if (currency !== null && !(CURRENCIES as readonly string[]).includes(currency))
      throw ruleInvalid(
        `routing[${index}].currency: ${rule.currency} is not a currency`,
        `routing[${index}].currency: ${rule.currency} no es una moneda`,
      );
    const amount = (value: number | undefined, field: string): number | null => {
      if (value === undefined) return null;
      if (currency === null)
        throw ruleInvalid(
          `routing[${index}].${field}: an amount needs the rule's currency`,
          `routing[${index}].${field}: un monto requiere la moneda de la regla`,
        );
      if (value === 0) return 0;
      try {
        return Money.fromWire(value, currency as Currency).minor;
      } catch (error) {
        if (!(error instanceof MoneyError)) throw error;
        throw ruleInvalid(`routing[${index}].${field}: ${error.message}`, `routing[${index}].${field} no es un monto válido`);
      }
    };
    const minAmount = amount(rule.minAmount, 'minAmount');
    const maxAmount = amount(rule.maxAmount, 'maxAmount');
    if (minAmount !== null && maxAmount !== null && minAmount > maxAmount)
      throw new DomainError('ROUTING_AMOUNT_RANGE_INVERTED', undefined, { rule: String(index) });
    return {
      paymentMethod: rule.paymentMethod.trim().toUpperCase(),
      country: rule.country === undefined ? null : rule.country.toUpperCase(),
      currency: currency as Currency | null,
      minAmount,
      maxAmount,
      processors,
      split: rule.split === undefined ? null : [...rule.split],
    };
  });
}

/** Whether a rule takes an attempt with these facts. */
export function ruleMatches(rule: RoutingRule, facts: RoutingFacts): boolean {
  if (rule.paymentMethod !== facts.paymentMethod) return false;
  if (rule.country !== null && rule.country !== facts.country) return false;
  if (rule.currency !== null && rule.currency !== facts.currency) return false;
  if (rule.minAmount !== null && facts.amount < rule.minAmount) return false;
  if (rule.maxAmount !== null && facts.amount > rule.maxAmount) return false;
  return true;
}

/**
 * The first rule that takes the attempt, and its processors in the order they are tried: as listed,
 * or (a split) the one the attempt's weighted draw picks first and the rest as listed after it. The
 * draw is deterministic per attempt: `draw` is a number in [0, 1) derived from the attempt's id, so
 * the same attempt always goes to the same processor, and many attempts divide by the weights.
 */
export function routeOf(rules: readonly RoutingRule[], facts: RoutingFacts, draw: number): { rule: number; processors: string[] } | null {
  const index = rules.findIndex((rule) => ruleMatches(rule, facts));
  if (index < 0) return null;
  const rule = rules[index];
  if (!rule.split) return { rule: index, processors: [...rule.processors] };
  const total = rule.split.reduce((sum, w) => sum + w, 0);
  let point = draw * total;
  let chosen = rule.processors.length - 1;
  for (let i = 0; i < rule.split.length; i++) {
    if (point < rule.split[i]) {
      chosen = i;
      break;
    }
    point -= rule.split[i];
  }
  return { rule: index, processors: [rule.processors[chosen], ...rule.processors.filter((_, i) => i !== chosen)] };
}

/** The rules as the configuration shows them (wire amounts). */
export function routingRulesView(rules: readonly RoutingRule[]): (RoutingRuleRequest & { processors: string[]; split?: number[] })[] {
  return rules.map((rule) => ({
    paymentMethod: rule.paymentMethod,
    ...(rule.country !== null ? { country: rule.country } : {}),
    ...(rule.currency !== null ? { currency: rule.currency } : {}),
    ...(rule.minAmount !== null && rule.currency !== null ? { minAmount: Money.ofMinor(rule.minAmount, rule.currency).toWire() } : {}),
    ...(rule.maxAmount !== null && rule.currency !== null ? { maxAmount: Money.ofMinor(rule.maxAmount, rule.currency).toWire() } : {}),
    processors: [...rule.processors],
    ...(rule.split !== null ? { split: [...rule.split] } : {}),
  }));
}
