/*
 * Long on purpose: Mercado Pago's customers, cards and card tokens (its "cards and customers management" guides and
 * API reference) and the MercadoPago.js Secure Fields that make tokens in a browser, read against one documentation.
 */
import * as crypto from 'node:crypto';
import { luhn } from './stand-in-server';

/**
 * What Mercado Pago keeps of cards for an account, as its documentation describes it, for the stand-in:
 *
 * - Card tokens: `POST /v1/card_tokens?public_key=<key>` from the payer's browser (MercadoPago.js Secure Fields) with
 *   the card's number, security code, expiry and holder; 32 hexadecimal characters, single use, valid for 7 days.
 *   The form errors are its documented cause codes (205 number empty, 208/209 month/year empty, 221 holder empty,
 *   224 code empty, E301 number invalid, E302 code invalid, 325/326 month/year invalid). From the server, with the
 *   account's access token, `{ card_id, customer_id }` makes a token for a saved card without its security code; from
 *   the browser, `{ card_id, security_code }` (MercadoPago.js `createCardToken({ cardId })` with the code's field) a
 *   token of a saved card of the key's account with its code (the payer present: one-click).
 * - Customers: `POST /v1/customers {email}` (400 cause 101 "the customer already exist" for an e-mail it has),
 *   `GET /v1/customers/search?email=`.
 * - Cards: `POST /v1/customers/:id/cards {token}` saves the card a token stands for: an id, the first six and last
 *   four digits, the expiry, the payment method (`visa`, `master`, …) and its type, never the number or the code.
 * - A payment with a token made without the security code is refused (400 cause 3031 "security_code_id can't be
 *   null") unless the account has automatic payments (Card on File), as integrators report the API answering.
 * - Mercado Pago's test cards decide by the holder's name: APRO approved, FUND insufficient amount, SECU security
 *   code, EXPI expiry, FORM form error, CALL call for authorisation, OTHE other reason, CONT pending.
 */

export interface StandInCard {
  readonly id: string;
  readonly customerId: string;
  readonly token: string;
  readonly firstSix: string;
  readonly lastFour: string;
  readonly expirationMonth: number;
  readonly expirationYear: number;
  readonly paymentMethodId: string;
  readonly paymentTypeId: 'credit_card' | 'debit_card';
  /** The holder's name, which decides a test card's payments (a test may change it: the card's bank answers otherwise). */
  holderName: string;
  readonly dateCreated: string;
}

interface CardToken {
  readonly id: string;
  /** The account whose public key or access token made it. */
  readonly account: string;
  readonly firstSix: string;
  readonly lastFour: string;
  readonly expirationMonth: number;
  readonly expirationYear: number;
  readonly holderName: string;
  /** Made with the security code (in a browser), or without (from a saved card, by the server). */
  readonly withSecurityCode: boolean;
  /** The saved card it stands for, when made from one. */
  readonly cardId: string | null;
  readonly dueAt: number;
  used: boolean;
}

interface Customer {
  readonly id: string;
  readonly account: string;
  readonly email: string;
  readonly dateCreated: string;
}

/** What a payment's token stands for, once taken (single use). */
export interface TokenCharge {
  readonly firstSix: string;
  readonly lastFour: string;
  readonly expirationMonth: number;
  readonly expirationYear: number;
  readonly paymentMethodId: string;
  readonly holderName: string;
  readonly withSecurityCode: boolean;
}

type Answer = [number, unknown];

const bad = (message: string, code: string | number, error = 'bad_request'): Answer => [
  400,
  { message, error, status: 400, cause: [{ code, description: message, data: null }] },
];

/** The outcome a test card's holder name decides (Mercado Pago's test cards). */
export const TEST_CARD_OUTCOMES: Readonly<Record<string, { status: 'approved' | 'rejected' | 'in_process'; detail: string }>> = {
  APRO: { status: 'approved', detail: 'accredited' },
  CONT: { status: 'in_process', detail: 'pending_contingency' },
  OTHE: { status: 'rejected', detail: 'cc_rejected_other_reason' },
  CALL: { status: 'rejected', detail: 'cc_rejected_call_for_authorize' },
  FUND: { status: 'rejected', detail: 'cc_rejected_insufficient_amount' },
  SECU: { status: 'rejected', detail: 'cc_rejected_bad_filled_security_code' },
  EXPI: { status: 'rejected', detail: 'cc_rejected_bad_filled_date' },
  FORM: { status: 'rejected', detail: 'cc_rejected_bad_filled_other' },
};

/** An id as a request gives it: a text, or a number (as JSON may carry one); anything else is no id. */
const textOf = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');

export class MercadoPagoCards {
  private readonly tokens = new Map<string, CardToken>();
  private readonly customers = new Map<string, Customer>();
  readonly cards = new Map<string, StandInCard>();
  private nextCard = 9_000_000_000 + crypto.randomInt(0, 2 ** 30);

  constructor(
    /** The account a public key belongs to (its access token), or undefined. */
    private readonly accountOfKey: (publicKey: string) => string | undefined,
    /** The account's user id (the prefix of its customers' ids). */
    private readonly userIdOf: (account: string) => number,
    /** The card's payment method, as Mercado Pago identifies a BIN. */
    private readonly methodOf: (bin: string) => string | undefined,
  ) {}

  /** `POST /v1/card_tokens?public_key=` from a browser: the card, validated as the card form's errors say. */
  tokenFromBrowser(publicKey: string | null, body: Record<string, unknown>): Answer {
    const account = publicKey ? this.accountOfKey(publicKey) : undefined;
    if (!account) return [401, { message: 'invalid public_key', error: 'unauthorized', status: 401, cause: [] }];
    if (body.card_id !== undefined) return this.savedCardToken(account, body);
    const number = typeof body.card_number === 'string' ? body.card_number.replace(/\s/g, '') : '';
    const code = typeof body.security_code === 'string' ? body.security_code : '';
    const month = Number(body.expiration_month);
    const year = Number(body.expiration_year);
    const holder = (body.cardholder as { name?: unknown } | undefined)?.name;
    if (!number) return bad('parameter cardNumber can not be null/empty', '205');
    if (body.expiration_month === undefined || body.expiration_month === '')
      return bad('parameter cardExpirationMonth can not be null/empty', '208');
    if (body.expiration_year === undefined || body.expiration_year === '')
      return bad('parameter cardExpirationYear can not be null/empty', '209');
    if (typeof holder !== 'string' || holder.trim() === '') return bad('parameter cardholderName can not be null/empty', '221');
    if (!code) return bad('parameter securityCode can not be null/empty', '224');
    if (!/^\d{13,19}$/.test(number) || !luhn(number) || !this.methodOf(number.slice(0, 6)))
      return bad('invalid parameter cardNumber', 'E301');
    if (!/^\d{3,4}$/.test(code)) return bad('invalid parameter securityCode', 'E302');
    if (!Number.isInteger(month) || month < 1 || month > 12) return bad('invalid parameter cardExpirationMonth', '325');
    const now = new Date();
    const fullYear = year < 100 ? 2000 + year : year;
    if (!Number.isInteger(year) || fullYear < now.getUTCFullYear() || (fullYear === now.getUTCFullYear() && month < now.getUTCMonth() + 1))
      return bad('invalid parameter cardExpirationYear', '326');
    const token = this.newToken(account, {
      firstSix: number.slice(0, 6),
      lastFour: number.slice(-4),
      expirationMonth: month,
      expirationYear: fullYear,
      holderName: holder.trim().toUpperCase(),
      withSecurityCode: true,
      cardId: null,
    });
    return [201, { ...this.tokenView(token), card_number_length: number.length, security_code_length: code.length }];
  }

  /** A saved card's token with its security code, from the payer's browser (the card the public key's account keeps). */
  private savedCardToken(account: string, body: Record<string, unknown>): Answer {
    const card = this.cards.get(textOf(body.card_id));
    const customer = card && this.customers.get(card.customerId);
    if (!card || !customer || customer.account !== account)
      return [404, { message: 'card not found', error: 'not_found', status: 404, cause: [] }];
    const code = typeof body.security_code === 'string' ? body.security_code : '';
    if (!code) return bad('parameter securityCode can not be null/empty', '224');
    if (!/^\d{3,4}$/.test(code)) return bad('invalid parameter securityCode', 'E302');
    const token = this.tokenOfSavedCard(account, card, true);
    return [201, { ...this.tokenView(token), security_code_length: code.length }];
  }

  /** `POST /v1/card_tokens {card_id, customer_id}` with the access token: a saved card's token, without its code. */
  tokenFromServer(account: string, body: Record<string, unknown>): Answer {
    const card = this.cards.get(textOf(body.card_id));
    const customer = card && this.customers.get(card.customerId);
    if (!card || !customer || customer.account !== account || (body.customer_id !== undefined && body.customer_id !== card.customerId))
      return [404, { message: 'card not found', error: 'not_found', status: 404, cause: [] }];
    const token = this.tokenOfSavedCard(account, card, false);
    return [201, this.tokenView(token)];
  }

  createCustomer(account: string, body: Record<string, unknown>): Answer {
    const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : '';
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) return bad('invalid email', '100');
    if ([...this.customers.values()].some((c) => c.account === account && c.email === email))
      return bad('the customer already exist', '101');
    const customer: Customer = {
      id: `${this.userIdOf(account)}-${crypto.randomBytes(7).toString('hex')}`,
      account,
      email,
      dateCreated: new Date().toISOString(),
    };
    this.customers.set(customer.id, customer);
    return [201, this.customerView(customer)];
  }

  searchCustomers(account: string, email: string | null): Answer {
    const results = [...this.customers.values()]
      .filter((c) => c.account === account && (email === null || c.email === email.trim().toLowerCase()))
      .map((c) => this.customerView(c));
    return [200, { paging: { limit: 10, offset: 0, total: results.length }, results }];
  }

  /** `POST /v1/customers/:id/cards {token}`: the card a browser's token stands for, kept for the customer. */
  saveCard(account: string, customerId: string, body: Record<string, unknown>): Answer {
    const customer = this.customers.get(customerId);
    if (!customer || customer.account !== account)
      return [404, { message: 'customer not found', error: 'not_found', status: 404, cause: [] }];
    const token = this.tokens.get(textOf(body.token));
    if (!token || token.account !== account || token.cardId !== null) return bad('invalid card token', '2006');
    if (token.used || token.dueAt <= Date.now()) return bad('card token already used or expired', '2006');
    token.used = true;
    const methodId = this.methodOf(token.firstSix)!;
    const card: StandInCard = {
      id: String(this.nextCard++),
      customerId,
      token: account,
      firstSix: token.firstSix,
      lastFour: token.lastFour,
      expirationMonth: token.expirationMonth,
      expirationYear: token.expirationYear,
      paymentMethodId: methodId,
      paymentTypeId: methodId.startsWith('deb') ? 'debit_card' : 'credit_card',
      holderName: token.holderName,
      dateCreated: new Date().toISOString(),
    };
    this.cards.set(card.id, card);
    return [201, this.cardView(card)];
  }

  /**
   * The card a payment's token stands for, the token taken (single use), or the payment's refusal: a token unknown,
   * used or expired, or made without the security code where the account has no automatic payments.
   */
  takeToken(account: string, id: unknown, automaticPayments: boolean): TokenCharge | Answer {
    const token = this.tokens.get(textOf(id));
    if (!token || token.account !== account) return bad('invalid card token', '2006');
    if (token.used || token.dueAt <= Date.now()) return bad('card token already used or expired', '2006');
    if (!token.withSecurityCode && !automaticPayments) return bad("security_code_id can't be null", 3031);
    token.used = true;
    const card = token.cardId ? this.cards.get(token.cardId) : undefined;
    return {
      firstSix: token.firstSix,
      lastFour: token.lastFour,
      expirationMonth: token.expirationMonth,
      expirationYear: token.expirationYear,
      paymentMethodId: card?.paymentMethodId ?? this.methodOf(token.firstSix)!,
      // A saved card answers as its holder's name says now (a test may have changed it since the token).
      holderName: card?.holderName ?? token.holderName,
      withSecurityCode: token.withSecurityCode,
    };
  }

  /** A token of a saved card (with or without its security code), as both card-token routes make one. */
  private tokenOfSavedCard(account: string, card: StandInCard, withSecurityCode: boolean): CardToken {
    const { firstSix, lastFour, expirationMonth, expirationYear, holderName, id: cardId } = card;
    return this.newToken(account, { firstSix, lastFour, expirationMonth, expirationYear, holderName, withSecurityCode, cardId });
  }

  private newToken(account: string, card: Omit<CardToken, 'id' | 'account' | 'dueAt' | 'used'>): CardToken {
    const token: CardToken = {
      id: crypto.randomBytes(16).toString('hex'),
      account,
      ...card,
      dueAt: Date.now() + 7 * 86_400_000,
      used: false,
    };
    this.tokens.set(token.id, token);
    return token;
  }

  private tokenView(token: CardToken): Record<string, unknown> {
    const now = new Date().toISOString();
    return {
      id: token.id,
      first_six_digits: token.firstSix,
      last_four_digits: token.lastFour,
      expiration_month: token.expirationMonth,
      expiration_year: token.expirationYear,
      cardholder: { name: token.holderName, identification: {} },
      status: 'active',
      luhn_validation: true,
      live_mode: false,
      date_created: now,
      date_last_updated: now,
      date_due: new Date(token.dueAt).toISOString(),
    };
  }

  private customerView(customer: Customer): Record<string, unknown> {
    const cards = [...this.cards.values()].filter((c) => c.customerId === customer.id).map((c) => this.cardView(c));
    return {
      id: customer.id,
      email: customer.email,
      date_created: customer.dateCreated,
      cards,
      default_card: cards[0]?.id ?? null,
      live_mode: false,
    };
  }

  private cardView(card: StandInCard): Record<string, unknown> {
    return {
      id: card.id,
      customer_id: card.customerId,
      expiration_month: card.expirationMonth,
      expiration_year: card.expirationYear,
      first_six_digits: card.firstSix,
      last_four_digits: card.lastFour,
      payment_method: { id: card.paymentMethodId, name: card.paymentMethodId, payment_type_id: card.paymentTypeId },
      security_code: { length: 3, card_location: 'back' },
      issuer: { id: 1, name: card.paymentMethodId },
      cardholder: { name: card.holderName, identification: {} },
      date_created: card.dateCreated,
      date_last_updated: card.dateCreated,
      live_mode: false,
    };
  }
}

/**
 * The stand-in's MercadoPago.js (`/js/v2`): the documented surface our page uses — `new MercadoPago(publicKey,
 * { locale })`, `mp.fields.create(type, { placeholder }).mount(containerId)` for cardNumber, expirationDate and
 * securityCode, and `mp.fields.createCardToken({ cardholderName })`, which posts the fields' card to
 * `/v1/card_tokens?public_key=` and resolves with the token (rejects with Mercado Pago's causes). The real fields are
 * frames of Mercado Pago's; these are inputs in the container, never named, so no form of the page ever posts them.
 */
export function mercadoPagoSdk(apiUrl: string): string {
  return `(function () {
  var API = ${JSON.stringify(apiUrl)};
  function MercadoPago(publicKey, options) {
    if (!(this instanceof MercadoPago)) throw new Error('MercadoPago must be called with new');
    if (typeof publicKey !== 'string' || !publicKey) throw new Error('MercadoPago needs a public key');
    var inputs = {};
    var self = this;
    this.fields = {
      create: function (type, settings) {
        if (['cardNumber', 'expirationDate', 'securityCode'].indexOf(type) < 0) throw new Error('unknown field ' + type);
        var input = document.createElement('input');
        input.setAttribute('data-mp-field', type);
        input.setAttribute('inputmode', 'numeric');
        input.setAttribute('autocomplete', type === 'cardNumber' ? 'cc-number' : type === 'expirationDate' ? 'cc-exp' : 'cc-csc');
        if (settings && settings.placeholder) input.placeholder = settings.placeholder;
        inputs[type] = input;
        return {
          mount: function (id) { var at = document.getElementById(id); if (!at) throw new Error('no container ' + id); at.appendChild(input); return this; },
          on: function () { return this; },
          update: function () { return this; },
          unmount: function () { input.remove(); return this; }
        };
      },
      createCardToken: function (nonPci) {
        var expiry = ((inputs.expirationDate && inputs.expirationDate.value) || '').split('/');
        var body = {
          card_number: ((inputs.cardNumber && inputs.cardNumber.value) || '').replace(/\\s/g, ''),
          security_code: (inputs.securityCode && inputs.securityCode.value) || '',
          expiration_month: expiry[0] ? Number(expiry[0].trim()) : '',
          expiration_year: expiry[1] ? Number(expiry[1].trim()) : '',
          cardholder: { name: (nonPci && nonPci.cardholderName) || '', identification: { type: nonPci && nonPci.identificationType, number: nonPci && nonPci.identificationNumber } }
        };
        return fetch(API + '/v1/card_tokens?public_key=' + encodeURIComponent(publicKey), {
          method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body)
        }).then(function (response) {
          return response.json().then(function (answer) { if (!response.ok) throw answer.cause || [answer]; return answer; });
        });
      }
    };
    self.locale = options && options.locale;
  }
  window.MercadoPago = MercadoPago;
})();`;
}
