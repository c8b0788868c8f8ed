/*
 * Long on purpose: dLocal's saved cards (its "Saving cards" guide and the Create a Card reference), the Smart Fields
 * (dLocal.js) that make their tokens in a browser, and the card_id payments, read against one documentation.
 */
import * as crypto from 'node:crypto';
import { luhn } from './stand-in-server';

/**
 * What dLocal keeps of cards for an account, as its documentation describes it, for the stand-in:
 *
 * - Smart Fields (dLocal.js): `dlocal(apiKey)`, `.fields({ locale, country })`, `.create('card')` (the all-in-one
 *   field: number, expiry and code), `.mount(element)`, `dlocal.createToken(card, { name })` resolving
 *   `{ token }`. How dLocal.js reaches dLocal is its own business: the stand-in's posts to `/smart-fields/tokens`.
 * - `POST /secure_cards` `{ country, card: { token } (or the card's data), payer: { name, document, email? } }`
 *   answers `{ card_id: "CV-<uuid>", holder_name, expiration_month, expiration_year, last4, brand }` (no BIN); a
 *   missing or unknown token is `5001 Invalid parameter` with its `param`, as the reference's example error.
 * - A saved card is charged by `POST /payments` with `card: { card_id }` and `payment_method_flow: DIRECT`.
 * - What the card's bank answers is the test's to say (`answer`): PAID unless told a rejection's status code.
 */

export interface DLocalStandInCard {
  readonly cardId: string;
  readonly login: string;
  readonly holderName: string;
  readonly number: string;
  readonly expirationMonth: number;
  readonly expirationYear: number;
  readonly brand: string;
  /** The status code its bank answers a payment with (200: paid), as a test sets it. */
  answer: string;
}

interface SmartFieldsToken {
  readonly login: string;
  readonly number: string;
  readonly expirationMonth: number;
  readonly expirationYear: number;
  readonly holderName: string;
  readonly dueAt: number;
  used: boolean;
}

type Answer = [number, unknown];

const invalid = (param: string): Answer => [400, { code: 5001, message: 'Invalid parameter', param }];

/** dLocal's brand codes by the card's first digits (Visa 4, Mastercard 5, American Express 34/37). */
function brandOf(number: string): string | null {
  if (number.startsWith('4')) return 'VI';
  if (/^5[1-5]/.test(number)) return 'MC';
  if (/^3[47]/.test(number)) return 'AE';
  return null;
}

export class DLocalCards {
  private readonly tokens = new Map<string, SmartFieldsToken>();
  readonly cards = new Map<string, DLocalStandInCard>();

  constructor(
    /** The account (its X-Login) a Smart Fields key belongs to, or undefined. */
    private readonly loginOfKey: (apiKey: string) => string | undefined,
  ) {}

  /** The Smart Fields' token for the card typed in its field (from the browser, with the account's API key). */
  tokenFromBrowser(body: Record<string, unknown>): Answer {
    const login = typeof body.key === 'string' ? this.loginOfKey(body.key) : undefined;
    if (!login) return [401, { code: 3001, message: 'Invalid credentials.' }];
    const number = typeof body.number === 'string' ? body.number.replace(/\s/g, '') : '';
    const [month, year] = typeof body.expiry === 'string' ? body.expiry.split('/').map((part) => Number(part.trim())) : [NaN, NaN];
    const fullYear = year < 100 ? 2000 + year : year;
    const now = new Date();
    if (!/^\d{13,19}$/.test(number) || !luhn(number) || !brandOf(number)) return invalid('card.number');
    if (!Number.isInteger(month) || month < 1 || month > 12) return invalid('card.expiration_month');
    if (!Number.isInteger(fullYear) || fullYear * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1)
      return invalid('card.expiration_year');
    if (typeof body.cvv !== 'string' || !/^\d{3,4}$/.test(body.cvv)) return invalid('card.cvv');
    if (typeof body.name !== 'string' || !body.name.trim()) return invalid('card.holder_name');
    const token = `CT-${crypto.randomUUID()}`;
    this.tokens.set(token, {
      login,
      number,
      expirationMonth: month,
      expirationYear: fullYear,
      holderName: body.name.trim(),
      dueAt: Date.now() + 10 * 60_000,
      used: false,
    });
    return [200, { token }];
  }

  /** `POST /secure_cards` with a Smart Fields token: the card saved, its `card_id`. */
  secureCard(login: string, body: Record<string, unknown>, documentOk: (country: string, document: string) => boolean): Answer {
    if (typeof body.country !== 'string' || !/^[A-Z]{2}$/.test(body.country)) return invalid('country');
    const payer = body.payer as Record<string, unknown> | undefined;
    if (typeof payer?.name !== 'string' || !payer.name.trim()) return invalid('payer.name');
    if (typeof payer.document !== 'string' || !documentOk(body.country, payer.document)) return invalid('payer.document');
    const card = body.card as Record<string, unknown> | undefined;
    const token = typeof card?.token === 'string' ? this.tokens.get(card.token) : undefined;
    if (!token || token.login !== login || token.used || token.dueAt <= Date.now()) return invalid('card.token');
    token.used = true;
    const saved: DLocalStandInCard = {
      cardId: `CV-${crypto.randomUUID()}`,
      login,
      holderName: token.holderName,
      number: token.number,
      expirationMonth: token.expirationMonth,
      expirationYear: token.expirationYear,
      brand: brandOf(token.number)!,
      answer: '200',
    };
    this.cards.set(saved.cardId, saved);
    return [
      200,
      {
        card_id: saved.cardId,
        holder_name: saved.holderName,
        expiration_month: saved.expirationMonth,
        expiration_year: saved.expirationYear,
        last4: saved.number.slice(-4),
        brand: saved.brand,
      },
    ];
  }

  /** The saved card a payment names, when it is the account's. */
  cardOf(login: string, cardId: unknown): DLocalStandInCard | null {
    const card = typeof cardId === 'string' ? this.cards.get(cardId) : undefined;
    return card && card.login === login ? card : null;
  }
}

/**
 * The stand-in's dLocal.js (`/js/`): the documented surface our page uses. Its card field is an input taking the
 * number, the expiry and the code separated by spaces (`4111111111111111 12/30 123`), where dLocal's is a frame.
 */
export function dlocalSdk(apiUrl: string): string {
  return `(function () {
  var API = ${JSON.stringify(apiUrl)};
  window.dlocal = function (apiKey) {
    if (typeof apiKey !== 'string' || !apiKey) throw new Error('dlocal needs an API key');
    return {
      fields: function (options) {
        if (!options || !options.country) throw new Error('fields need a country');
        return {
          create: function (type) {
            if (type !== 'card') throw new Error('unknown field ' + type);
            var input = document.createElement('input');
            input.setAttribute('data-dlocal-field', 'card');
            input.setAttribute('autocomplete', 'cc-number');
            input.placeholder = '0000 0000 0000 0000 MM/YY CVV';
            return { input: input, mount: function (element) { element.appendChild(input); return this; }, on: function () { return this; } };
          }
        };
      },
      createToken: function (card, data) {
        var parts = (card.input.value || '').trim().split(/\\s+/);
        var body = { key: apiKey, number: parts[0] || '', expiry: parts[1] || '', cvv: parts[2] || '', name: (data && data.name) || '' };
        return fetch(API + '/smart-fields/tokens', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
          .then(function (response) { return response.json().then(function (answer) { if (!response.ok) throw answer; return answer; }); });
      }
    };
  };
})();`;
}
