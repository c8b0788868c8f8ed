import type { MailMessage } from '@pcs/mail';
import { escapeHtml, formatAmount, PayerLanguage } from '@pcs/pages';
import { Currency } from '@pcs/kernel';

const LOCALES: Record<PayerLanguage, string> = { es: 'es-UY', en: 'en-US', pt: 'pt-BR' };
/** Spanish first, English, and Portuguese for Brazil (BRL): the languages of the payer's pages. */
const languagesOf = (currency: string): PayerLanguage[] => (currency === 'BRL' ? ['pt', 'es', 'en'] : ['es', 'en']);

/** A day as the payer reads it, in the merchant's time zone (where the subscription's dates are). */
function formatDay(at: Date, timeZone: string, language: PayerLanguage): string {
  return new Intl.DateTimeFormat(LOCALES[language], { dateStyle: 'long', timeZone }).format(at);
}

interface BillingMail {
  readonly to: string;
  readonly merchantName: string;
  readonly description: string;
  readonly amount: number;
  readonly currency: string;
  readonly timeZone: string;
}

function message(mail: BillingMail, subject: string, lines: (language: PayerLanguage) => string[]): MailMessage {
  const languages = languagesOf(mail.currency);
  const html = (language: PayerLanguage) =>
    `<div lang="${language}">${lines(language)
      .map((line) => {
        const url = /https?:\/\/\S+$/.exec(line)?.[0];
        return url
          ? `<p>${escapeHtml(line.slice(0, -url.length))}<a href="${escapeHtml(url)}">${escapeHtml(url)}</a></p>`
          : `<p>${escapeHtml(line)}</p>`;
      })
      .join('')}</div>`;
  return {
    to: mail.to,
    subject: `${mail.merchantName}: ${subject}`,
    text: `${languages.map((language) => lines(language).join('\n')).join('\n\n---\n\n')}\n`,
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif">${languages.map(html).join('<hr>')}</body></html>`,
  };
}

/** Before each charge (contract §31: 3 days before): what will be charged, when, and for what. */
export function upcomingChargeEmail(mail: BillingMail & { readonly chargeAt: Date }): MailMessage {
  return message(mail, 'próximo cobro / upcoming charge', (language) => {
    const amount = formatAmount(mail.amount, mail.currency as Currency, language);
    const day = formatDay(mail.chargeAt, mail.timeZone, language);
    switch (language) {
      case 'es':
        return [`${mail.merchantName} cobrará ${amount} el ${day} a su medio de pago guardado.`, `Concepto: ${mail.description}`];
      case 'en':
        return [`${mail.merchantName} will charge ${amount} on ${day} to your saved payment method.`, `For: ${mail.description}`];
      case 'pt':
        return [`${mail.merchantName} cobrará ${amount} em ${day} no seu meio de pagamento salvo.`, `Referente a: ${mail.description}`];
    }
  });
}

/**
 * After a declined charge (contract §31): when it is tried again, or, when it will not be (a hard decline, or no
 * retry left), that the payer must give the merchant another payment method. The decline's own words are not
 * repeated: they are the processor's, for the merchant.
 */
export function chargeDeclinedEmail(mail: BillingMail & { readonly retryAt: Date | null; readonly setupUrl: string | null }): MailMessage {
  return message(mail, 'no pudimos cobrar / payment declined', (language) => {
    const amount = formatAmount(mail.amount, mail.currency as Currency, language);
    const retry = mail.retryAt && formatDay(mail.retryAt, mail.timeZone, language);
    switch (language) {
      case 'es':
        return [
          `No pudimos cobrar ${amount} de ${mail.merchantName} (${mail.description}) a su medio de pago.`,
          retry
            ? `Lo intentaremos de nuevo el ${retry}.`
            : `No lo volveremos a intentar con ese medio: indíquele otro a ${mail.merchantName}.`,
          ...(mail.setupUrl ? [`Para pagar con otra tarjeta, guárdela aquí y la cobraremos enseguida: ${mail.setupUrl}`] : []),
        ];
      case 'en':
        return [
          `We could not charge ${amount} for ${mail.merchantName} (${mail.description}) to your payment method.`,
          retry ? `We will try again on ${retry}.` : `It will not be tried again: give ${mail.merchantName} another payment method.`,
          ...(mail.setupUrl ? [`To pay with another card, save it here and we will charge it right away: ${mail.setupUrl}`] : []),
        ];
      case 'pt':
        return [
          `Não conseguimos cobrar ${amount} de ${mail.merchantName} (${mail.description}) no seu meio de pagamento.`,
          retry ? `Tentaremos novamente em ${retry}.` : `Não tentaremos novamente com esse meio: informe outro a ${mail.merchantName}.`,
          ...(mail.setupUrl ? [`Para pagar com outro cartão, salve-o aqui e o cobraremos em seguida: ${mail.setupUrl}`] : []),
        ];
    }
  });
}

/**
 * A month before the subscription's card expires (contract §31): which charge needs another card, and a page to save
 * it (when the merchant's cards can be saved here). The month is the card's own, as printed on it.
 */
export function cardExpiringEmail(mail: BillingMail & { readonly expiresAt: Date; readonly setupUrl: string | null }): MailMessage {
  // The card is usable through its month: the month before the instant it stops being usable, as MM/YYYY.
  const last = new Date(mail.expiresAt.getTime() - 1);
  const month = `${String(last.getUTCMonth() + 1).padStart(2, '0')}/${last.getUTCFullYear()}`;
  return message(mail, 'su tarjeta vence / your card expires', (language) => {
    const amount = formatAmount(mail.amount, mail.currency as Currency, language);
    switch (language) {
      case 'es':
        return [
          `La tarjeta con la que paga ${amount} a ${mail.merchantName} (${mail.description}) vence en ${month}.`,
          ...(mail.setupUrl
            ? [`Para seguir pagando sin interrupciones, guarde otra aquí: ${mail.setupUrl}`]
            : [`Indíquele otra a ${mail.merchantName}.`]),
        ];
      case 'en':
        return [
          `The card you pay ${amount} to ${mail.merchantName} (${mail.description}) with expires in ${month}.`,
          ...(mail.setupUrl
            ? [`To keep paying without interruption, save another here: ${mail.setupUrl}`]
            : [`Give ${mail.merchantName} another one.`]),
        ];
      case 'pt':
        return [
          `O cartão com que você paga ${amount} a ${mail.merchantName} (${mail.description}) vence em ${month}.`,
          ...(mail.setupUrl
            ? [`Para continuar pagando sem interrupções, salve outro aqui: ${mail.setupUrl}`]
            : [`Informe outro a ${mail.merchantName}.`]),
        ];
    }
  });
}
