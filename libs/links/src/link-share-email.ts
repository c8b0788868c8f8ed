import { escapeHtml, formatAmount, formatDateTime } from '@pcs/pages';
import type { MailMessage } from '@pcs/mail';
import { Link } from './domain/link';

/** The email that shares a link (contract §12): Spanish, then English; HTML and plain text. */
export function linkShareEmail(input: {
  link: Link;
  url: string;
  merchantName: string;
  receiverEmail: string;
  receiverName: string;
}): MailMessage {
  const l = input.link.snapshot();
  const text = (lang: 'es' | 'en') => {
    const amount = formatAmount(l.amount, l.currency, lang);
    const expiry = formatDateTime(l.expirationDate, lang);
    return lang === 'es'
      ? [
          `Hola ${input.receiverName}:`,
          `${input.merchantName} le envía un link de pago por ${amount}.`,
          l.description ? `Concepto: ${l.description}` : '',
          `Vence el ${expiry}.`,
          `Pague aquí: ${input.url}`,
        ]
      : [
          `Hello ${input.receiverName},`,
          `${input.merchantName} sent you a payment link for ${amount}.`,
          l.description ? `For: ${l.description}` : '',
          `It expires on ${expiry}.`,
          `Pay here: ${input.url}`,
        ];
  };
  const lines = (lang: 'es' | 'en') => text(lang).filter(Boolean);
  const html = (lang: 'es' | 'en') =>
    `<div lang="${lang}">${lines(lang)
      .map((line) =>
        line.includes(input.url) ? `<p><a href="${escapeHtml(input.url)}">${escapeHtml(line)}</a></p>` : `<p>${escapeHtml(line)}</p>`,
      )
      .join('')}</div>`;
  return {
    to: input.receiverEmail,
    subject: `${input.merchantName}: link de pago / payment link`,
    text: `${lines('es').join('\n')}\n\n---\n\n${lines('en').join('\n')}\n`,
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif">${html('es')}<hr>${html('en')}</body></html>`,
  };
}
