import { DomainError } from '@pcs/kernel';

/**
 * A merchant's dunning (contract §31): the days after an invoice's date on which a soft decline (or an
 * unreachable processor) is tried again, in increasing order, and what the subscription becomes when the last
 * try fails (`UNPAID`: it stays, invoicing nothing, until its open invoice is paid; `CANCELED`: it ends).
 */
export interface DunningSettings {
  readonly retryDays: readonly number[];
  readonly finalStatus: 'UNPAID' | 'CANCELED';
}

export const DEFAULT_DUNNING: DunningSettings = { retryDays: [1, 3, 5, 7], finalStatus: 'UNPAID' };

/** At most 8 retries (Stripe's Smart Retries' count), within 60 days of the invoice. */
export const DUNNING_LIMITS = { maxRetries: 8, maxDay: 60 } as const;

export type DunningRequest = Partial<Record<keyof DunningSettings, unknown>>;

function invalid(reason: string, reasonEs: string): DomainError {
  return new DomainError('ERROR_IN_UPDATE_MERCHANT_CONFIGURATION', reason, { reason, reasonEs });
}

/** The settings after a request's fields are applied to `current`; anything out of range is the configuration's 400. */
export function dunningFrom(request: DunningRequest, current: DunningSettings): DunningSettings {
  let { retryDays, finalStatus } = current;
  if (request.retryDays !== undefined) {
    const days = request.retryDays;
    const { maxRetries, maxDay } = DUNNING_LIMITS;
    if (
      !Array.isArray(days) ||
      days.length > maxRetries ||
      !days.every((day, i) => Number.isInteger(day) && day >= 1 && day <= maxDay && (i === 0 || day > (days[i - 1] as number)))
    )
      throw invalid(
        `dunning.retryDays must be at most ${maxRetries} whole days from 1 to ${maxDay}, each after the one before`,
        `dunning.retryDays debe tener como máximo ${maxRetries} días enteros de 1 a ${maxDay}, cada uno posterior al anterior`,
      );
    retryDays = [...(days as number[])];
  }
  if (request.finalStatus !== undefined) {
    if (request.finalStatus !== 'UNPAID' && request.finalStatus !== 'CANCELED')
      throw invalid('dunning.finalStatus must be UNPAID or CANCELED', 'dunning.finalStatus debe ser UNPAID o CANCELED');
    finalStatus = request.finalStatus;
  }
  return { retryDays, finalStatus };
}

/** Stored settings read back: what is missing or malformed takes the default. */
export function dunningOf(stored: unknown): DunningSettings {
  if (!stored || typeof stored !== 'object') return DEFAULT_DUNNING;
  try {
    return dunningFrom(stored, DEFAULT_DUNNING);
  } catch {
    return DEFAULT_DUNNING;
  }
}
