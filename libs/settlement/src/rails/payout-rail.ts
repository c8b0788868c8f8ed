import { Currency } from '@pcs/kernel';
import type { BusinessCalendar, CountryCalendar, LocalDate } from '../domain/business-calendar';
import type { PayoutProps } from '../domain/payout';
import type { Bank } from '../domain/settlement-account';

/** What a rail says when a payout leaves by it. */
export interface Departure {
  /** When the money should reach the account (null: known when the bank answers). */
  readonly arrivalDate: LocalDate | null;
  /** After how long the rail itself settles the payout (null: an answer is recorded later, by the operator). */
  readonly settleAfterSeconds: number | null;
}

export type RailOutcome = { readonly paid: true; readonly bankReference: string } | { readonly paid: false; readonly reason: string };

/** Why a rail cannot carry a currency to a bank, in English and Spanish (contract §28); null when it can. */
export type NotCarried = { readonly reason: string; readonly reasonEs: string } | null;

/**
 * How payouts reach banks (contract §19), behind one port: the sandbox rail
 * settles by itself after a delay; the bank-file rail waits for the
 * operator's export and the bank's answer.
 */
export abstract class PayoutRail {
  abstract readonly name: 'SANDBOX' | 'BANK_FILE';
  /** Whether payouts in `currency` can reach an account at `bank` by this rail (contract §28): null, or why not. */
  notCarried(currency: Currency, bank: Bank): NotCarried {
    void currency;
    void bank;
    return null;
  }
  abstract depart(payout: Readonly<PayoutProps>, country: CountryCalendar, now: Date, calendar: BusinessCalendar): Departure;
  /** The rail's own answer when it settles by itself. */
  abstract outcome(payout: Readonly<PayoutProps>): RailOutcome;
}

/**
 * The sandbox rail (the default): in transit at once, paid after
 * PAYOUT_SANDBOX_DELAY with an arrival on the next business day, or failed
 * when the account number ends in 13 (as the sandbox gateway refuses amounts
 * ending in 13).
 */
export class SandboxPayoutRail extends PayoutRail {
  readonly name = 'SANDBOX' as const;

  constructor(private readonly delaySeconds: number) {
    super();
  }

  depart(_payout: Readonly<PayoutProps>, country: CountryCalendar, now: Date, calendar: BusinessCalendar): Departure {
    return {
      arrivalDate: calendar.businessDayAfter(country, calendar.localDate(now, country.timeZone)),
      settleAfterSeconds: this.delaySeconds,
    };
  }

  outcome(payout: Readonly<PayoutProps>): RailOutcome {
    return payout.destination.accountNumber.endsWith('13')
      ? { paid: false, reason: 'the sandbox bank refused the account (its number ends in 13)' }
      : { paid: true, bankReference: `SANDBOX-${payout.payoutId.slice(0, 8).toUpperCase()}` };
  }
}

/**
 * The bank-file rail, for a bank with no API: the payout waits in transit in
 * its bank's batch file (`payouts:export`), and the operator records what the
 * bank answered (`payout:mark-paid`, `payout:mark-failed`).
 */
export class BankFilePayoutRail extends PayoutRail {
  readonly name = 'BANK_FILE' as const;

  /**
   * A Brazilian bank takes payouts in a CNAB 240 remittance, which pays in reais only (FEBRABAN's
   * layout has no currency field: its amounts are BRL); a CSV carries its currency on every line.
   */
  override notCarried(currency: Currency, bank: Bank): NotCarried {
    return bank.country === 'BRA' && currency !== Currency.BRL
      ? {
          reason: `${bank.name} takes payouts in CNAB 240 remittances, which pay in BRL only`,
          reasonEs: `${bank.name} recibe retiros en remesas CNAB 240, que pagan solo en BRL`,
        }
      : null;
  }

  depart(): Departure {
    return { arrivalDate: null, settleAfterSeconds: null };
  }

  outcome(): RailOutcome {
    throw new Error('the bank-file rail settles only by the operator recording the bank answer');
  }
}
