import type { BusinessCalendar, CountryCalendar, LocalDate } from '../domain/business-calendar';
import type { PayoutProps } from '../domain/payout';

/** What a rail says when a payout leaves by it. */
export interface Departure {
  /** When the money should reach the account (null: known when the bank answers). */
  readonly arrivalDate: LocalDate | null;
  /** After how long the rail itself settles the payout (null: an answer is recorded later, by the operator). */
  readonly settleAfterSeconds: number | null;
}

export type RailOutcome = { readonly paid: true; readonly bankReference: string } | { readonly paid: false; readonly reason: string };

/**
 * How payouts reach banks (contract §19), behind one port: the sandbox rail
 * settles by itself after a delay; the bank-file rail waits for the
 * operator's export and the bank's answer.
 */
export abstract class PayoutRail {
  abstract readonly name: 'SANDBOX' | 'BANK_FILE';
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

  depart(): Departure {
    return { arrivalDate: null, settleAfterSeconds: null };
  }

  outcome(): RailOutcome {
    throw new Error('the bank-file rail settles only by the operator recording the bank answer');
  }
}
