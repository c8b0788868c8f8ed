import type { MailMessage } from '@pcs/mail';
import { Currency } from '@pcs/kernel';
import { escapeHtml, formatAmount } from '@pcs/pages';

export interface OutcomeEmailInput {
  readonly outcome: 'succeeded' | 'failed';
  readonly to: string;
  readonly merchantName: string;
  readonly amountMinor: number;
  readonly currency: Currency;
  /** The merchant's reference when it gave one, the payment intent's id otherwise. */
  readonly reference: string;
  readonly paymentMethod: string | null;
  readonly error: string | null;
}

/** A payment's outcome for the merchant's notification address (contract §14): Spanish, English below; HTML and text. */
export function outcomeEmail(input: OutcomeEmailInput): MailMessage {
  const ok = input.outcome === 'succeeded';
  const lines = (lang: 'es' | 'en'): string[] => {
    const amount = formatAmount(input.amountMinor, input.currency, lang);
    const method = input.paymentMethod ?? (lang === 'es' ? 'sin especificar' : 'not specified');
    return lang === 'es'
      ? [
          ok ? `${input.merchantName}: se cobró un pago de ${amount}.` : `${input.merchantName}: falló un intento de pago de ${amount}.`,
          `Referencia: ${input.reference}`,
          `Medio de pago: ${method}`,
          ok || !input.error ? '' : `Motivo: ${input.error}`,
        ].filter(Boolean)
      : [
          ok ? `${input.merchantName}: a payment of ${amount} succeeded.` : `${input.merchantName}: a payment attempt of ${amount} failed.`,
          `Reference: ${input.reference}`,
          `Payment method: ${method}`,
          ok || !input.error ? '' : `Reason: ${input.error}`,
        ].filter(Boolean);
  };
  const html = (lang: 'es' | 'en') =>
    `<div lang="${lang}">${lines(lang)
      .map((line) => `<p>${escapeHtml(line)}</p>`)
      .join('')}</div>`;
  return {
    to: input.to,
    subject: ok
      ? `${input.merchantName}: pago cobrado / payment succeeded (${input.reference})`
      : `${input.merchantName}: pago fallido / payment failed (${input.reference})`,
    text: `${lines('es').join('\n')}\n\n---\n\n${lines('en').join('\n')}\n`,
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif">${html('es')}<hr>${html('en')}</body></html>`,
  };
}
