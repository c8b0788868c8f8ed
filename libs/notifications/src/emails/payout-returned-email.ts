import type { MailMessage } from '@pcs/mail';
import { Currency } from '@pcs/kernel';
import { escapeHtml, formatAmount } from '@pcs/pages';
import { ACCOUNT_TYPE_NAMES } from './settlement-account-email';

export interface PayoutReturnedEmailInput {
  readonly to: string;
  readonly merchantName: string;
  readonly payoutId: string;
  readonly amountMinor: number;
  readonly currency: Currency;
  readonly bankName: string | null;
  readonly accountType: string;
  /** The last four characters of the account number or key: never the whole of it in a mail. */
  readonly accountNumberEnding: string;
  /** What the bank said, as the operator recorded it. */
  readonly reason: string | null;
}

/**
 * A bank gave a paid payout back (contract §24: RETURNED): to the merchant's
 * notification addresses and the business's dashboard admins, as a change of
 * account is. The money is back in the available balance, and payouts to
 * that account stop until it is changed or an admin confirms it: the mail
 * says both, and what to do. Spanish, English below.
 */
export function payoutReturnedEmail(input: PayoutReturnedEmailInput): MailMessage {
  const lines = (lang: 'es' | 'en'): string[] => {
    const amount = formatAmount(input.amountMinor, input.currency, lang);
    const type = (ACCOUNT_TYPE_NAMES[input.accountType] ?? { es: input.accountType, en: input.accountType })[lang];
    const account = `${input.bankName ?? ''}${input.bankName ? ', ' : ''}${type} ${lang === 'es' ? 'terminada en' : 'ending in'} ${input.accountNumberEnding}`;
    return lang === 'es'
      ? [
          `${input.merchantName}: el banco devolvió el retiro de ${amount} a ${account}.`,
          input.reason ? `Motivo informado por el banco: ${input.reason}.` : 'El banco no informó un motivo.',
          'El monto volvió a su saldo disponible.',
          'Si la cuenta de liquidación sigue siendo esa, ningún retiro va a ella hasta que la cambie o un administrador la confirme desde el panel (Saldo) con un código de su autenticador.',
          `Retiro: ${input.payoutId}`,
        ]
      : [
          `${input.merchantName}: the bank returned the payout of ${amount} to ${account}.`,
          input.reason ? `The bank's reason: ${input.reason}.` : 'The bank gave no reason.',
          'The amount is back in your available balance.',
          'If that is still your settlement account, no payout goes to it until you change it or an admin confirms it from the dashboard (Balance) with a code of their authenticator.',
          `Payout: ${input.payoutId}`,
        ];
  };
  const html = (lang: 'es' | 'en') =>
    `<div lang="${lang}">${lines(lang)
      .map((line) => `<p>${escapeHtml(line)}</p>`)
      .join('')}</div>`;
  return {
    to: input.to,
    subject: `${input.merchantName}: retiro devuelto por el banco / payout returned by the bank (${input.currency})`,
    text: `${lines('es').join('\n')}\n\n---\n\n${lines('en').join('\n')}\n`,
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif">${html('es')}<hr>${html('en')}</body></html>`,
  };
}
