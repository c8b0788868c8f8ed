import { DomainError } from '@pcs/kernel';

/**
 * The card-testing guard of a merchant's public pages (contract §30): how many
 * declined attempts per card fingerprint and per client address, and how many
 * attempts per address, within `windowMinutes`, before the pages refuse that
 * card or address for `blockMinutes`. A link (or a B2B checkout: one sale) is
 * refused once its declines reach `maxDeclinesPerAddress` from any addresses.
 */
export interface CardTestingGuardSettings {
  readonly enabled: boolean;
  readonly maxDeclinesPerCard: number;
  readonly maxDeclinesPerAddress: number;
  readonly maxAttemptsPerAddress: number;
  readonly windowMinutes: number;
  readonly blockMinutes: number;
}

export const DEFAULT_CARD_TESTING_GUARD: CardTestingGuardSettings = {
  enabled: true,
  maxDeclinesPerCard: 3,
  maxDeclinesPerAddress: 10,
  maxAttemptsPerAddress: 30,
  windowMinutes: 60,
  blockMinutes: 60,
};

/** Each limit's range: a whole number within it (a day's window, a week's block at most). */
export const CARD_TESTING_GUARD_RANGES: Readonly<Record<Exclude<keyof CardTestingGuardSettings, 'enabled'>, readonly [number, number]>> = {
  maxDeclinesPerCard: [1, 100],
  maxDeclinesPerAddress: [1, 1000],
  maxAttemptsPerAddress: [1, 10_000],
  windowMinutes: [1, 1440],
  blockMinutes: [1, 10_080],
};

/** What the configuration request sends: any of the fields; the others keep their value. */
export type CardTestingGuardRequest = Partial<Record<keyof CardTestingGuardSettings, unknown>>;

function invalid(reason: string, reasonEs: string): DomainError {
  return new DomainError('ERROR_IN_UPDATE_MERCHANT_CONFIGURATION', reason, { reason, reasonEs });
}

/** The settings after a request's fields are applied to `current`; a value out of its range is the configuration's 400. */
export function cardTestingGuardFrom(request: CardTestingGuardRequest, current: CardTestingGuardSettings): CardTestingGuardSettings {
  const next: Record<string, unknown> = { ...current };
  if (request.enabled !== undefined) {
    if (typeof request.enabled !== 'boolean')
      throw invalid('cardTestingGuard.enabled must be true or false', 'cardTestingGuard.enabled debe ser true o false');
    next.enabled = request.enabled;
  }
  for (const [name, [min, max]] of Object.entries(CARD_TESTING_GUARD_RANGES)) {
    const value = request[name as keyof CardTestingGuardRequest];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
      throw invalid(
        `cardTestingGuard.${name} must be a whole number from ${min} to ${max}`,
        `cardTestingGuard.${name} debe ser un número entero de ${min} a ${max}`,
      );
    next[name] = value;
  }
  return next as unknown as CardTestingGuardSettings;
}

/** Stored settings read back: what is missing or malformed takes the default (a row of an earlier version has none). */
export function cardTestingGuardOf(stored: unknown): CardTestingGuardSettings {
  if (!stored || typeof stored !== 'object') return DEFAULT_CARD_TESTING_GUARD;
  try {
    return cardTestingGuardFrom(stored, DEFAULT_CARD_TESTING_GUARD);
  } catch {
    return DEFAULT_CARD_TESTING_GUARD;
  }
}
