import type { MailMessage } from '@pcs/mail';
import { escapeHtml } from '@pcs/pages';

/** An account as the event shows it: its number by its ending only. */
export interface AccountShown {
  readonly bankName: string;
  readonly accountType: string;
  readonly accountNumberEnding: string;
}

export interface SettlementAccountEmailInput {
  readonly to: string;
  readonly merchantName: string;
  readonly currency: string;
  readonly account: AccountShown;
  readonly previous: AccountShown | null;
  /** ISO 8601, or null when payouts go at once (the merchant's first account). */
  readonly holdUntil: string | null;
}

/** Account types by their names in a mail. */
export const ACCOUNT_TYPE_NAMES: Record<string, { es: string; en: string }> = {
  CHECKING: { es: 'cuenta corriente', en: 'checking account' },
  SAVINGS: { es: 'caja de ahorro', en: 'savings account' },
  PIX_KEY: { es: 'clave PIX', en: 'PIX key' },
};

/**
 * Where a merchant's payouts go changed (contract §24): to its notification
 * addresses and the business's dashboard admins, so that a change nobody
 * made is seen before money leaves. Spanish, English below; account numbers
 * by their last four characters only.
 */
export function settlementAccountEmail(input: SettlementAccountEmailInput): MailMessage {
  const shown = (a: AccountShown, lang: 'es' | 'en') =>
    `${a.bankName}, ${(ACCOUNT_TYPE_NAMES[a.accountType] ?? { es: a.accountType, en: a.accountType })[lang]} ${lang === 'es' ? 'terminada en' : 'ending in'} ${a.accountNumberEnding}`;
  const until = input.holdUntil ? new Date(input.holdUntil).toISOString().replace('T', ' ').slice(0, 16) + ' UTC' : null;
  const lines = (lang: 'es' | 'en'): string[] =>
    lang === 'es'
      ? [
          `${input.merchantName}: la cuenta de liquidación en ${input.currency} ahora es ${shown(input.account, 'es')}.`,
          input.previous ? `Antes era ${shown(input.previous, 'es')}.` : 'Es la primera cuenta del comercio en esa moneda.',
          until
            ? `Los retiros a esta cuenta esperan hasta el ${until}. Un administrador puede confirmarla antes desde el panel (Saldo), con un código de su autenticador.`
            : 'Los retiros a esta cuenta salen desde ahora.',
          'Si nadie de su equipo hizo este cambio, no la confirme: cambie la cuenta de vuelta, rote sus credenciales de API y avísenos.',
        ]
      : [
          `${input.merchantName}: the settlement account in ${input.currency} is now ${shown(input.account, 'en')}.`,
          input.previous ? `It was ${shown(input.previous, 'en')}.` : 'It is the merchant’s first account in that currency.',
          until
            ? `Payouts to this account wait until ${until}. An admin can confirm it earlier from the dashboard (Balance) with a code of their authenticator.`
            : 'Payouts go to this account from now on.',
          'If nobody on your team made this change, do not confirm it: change the account back, rotate your API credentials and tell us.',
        ];
  const html = (lang: 'es' | 'en') =>
    `<div lang="${lang}">${lines(lang)
      .map((line) => `<p>${escapeHtml(line)}</p>`)
      .join('')}</div>`;
  return {
    to: input.to,
    subject: `${input.merchantName}: cuenta de liquidación cambiada / settlement account changed (${input.currency})`,
    text: `${lines('es').join('\n')}\n\n---\n\n${lines('en').join('\n')}\n`,
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif">${html('es')}<hr>${html('en')}</body></html>`,
  };
}
