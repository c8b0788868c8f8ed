import type { MailMessage } from '@pcs/mail';
import { escapeHtml } from '@pcs/pages';

export interface PayoutCurrencyEmailInput {
  readonly to: string;
  readonly merchantName: string;
  readonly currency: string;
  /** Why the rail cannot carry it, in each language (the rail's own words). */
  readonly reason: { readonly es: string; readonly en: string };
}

/**
 * A scheduled payout waits because its currency cannot reach the settlement account by the bank's
 * rail (contract §28: a CNAB 240 remittance pays reais only): to the business's dashboard admins
 * who see the merchant, once while it waits. The balance stays; nothing was paid. Spanish, English below.
 */
export function payoutCurrencyEmail(input: PayoutCurrencyEmailInput): MailMessage {
  const lines = (lang: 'es' | 'en'): string[] =>
    lang === 'es'
      ? [
          `${input.merchantName}: los retiros programados en ${input.currency} esperan.`,
          `Motivo: ${input.reason.es}.`,
          `El saldo en ${input.currency} sigue disponible; no se retiró nada.`,
          `Para retirarlo, indique una cuenta de liquidación en ${input.currency} en un banco que la reciba, o pida al operador otro medio de pago a bancos.`,
        ]
      : [
          `${input.merchantName}: scheduled payouts in ${input.currency} are waiting.`,
          `Why: ${input.reason.en}.`,
          `The balance in ${input.currency} stays available; nothing was paid out.`,
          `To pay it out, set a settlement account in ${input.currency} at a bank that takes it, or ask the operator for another rail.`,
        ];
  const html = (lang: 'es' | 'en') =>
    `<div lang="${lang}">${lines(lang)
      .map((line) => `<p>${escapeHtml(line)}</p>`)
      .join('')}</div>`;
  return {
    to: input.to,
    subject: `${input.merchantName}: retiros en ${input.currency} en espera / payouts in ${input.currency} waiting`,
    text: `${lines('es').join('\n')}\n\n---\n\n${lines('en').join('\n')}\n`,
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif">${html('es')}<hr>${html('en')}</body></html>`,
  };
}
