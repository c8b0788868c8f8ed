import type { MailMessage } from '@pcs/mail';
import { Currency } from '@pcs/kernel';
import { escapeHtml, formatAmount } from '@pcs/pages';

export interface DisputeEmailInput {
  readonly to: string;
  readonly merchantName: string;
  readonly disputeId: string;
  readonly paymentIntentId: string;
  readonly amountMinor: number;
  readonly currency: Currency;
  readonly reason: string;
  /** ISO 8601, or null when the processor gave no due date. */
  readonly evidenceDueBy: string | null;
  readonly processor: string;
}

const REASONS: Record<string, { es: string; en: string }> = {
  FRAUDULENT: { es: 'el pagador no reconoce la compra', en: 'the payer does not recognise the purchase' },
  PRODUCT_NOT_RECEIVED: { es: 'el producto no se recibió', en: 'the product was not received' },
  PRODUCT_UNACCEPTABLE: { es: 'el producto no es lo ofrecido', en: 'the product is not what was offered' },
  DUPLICATE: { es: 'cobro duplicado', en: 'a duplicate charge' },
  CREDIT_NOT_PROCESSED: { es: 'un reembolso no procesado', en: 'a refund not processed' },
  SUBSCRIPTION_CANCELED: { es: 'suscripción cancelada', en: 'a canceled subscription' },
  GENERAL: { es: 'sin motivo específico', en: 'no specific reason' },
};

/**
 * A dispute opened (contract §21): to every notification address whatever the
 * merchant's notification settings, because it has a deadline. Spanish,
 * English below; HTML and text. Says what was taken, why, by when to answer,
 * and how.
 */
export function disputeEmail(input: DisputeEmailInput): MailMessage {
  const lines = (lang: 'es' | 'en'): string[] => {
    const amount = formatAmount(input.amountMinor, input.currency, lang);
    const reason = (REASONS[input.reason] ?? REASONS.GENERAL)[lang];
    const due = input.evidenceDueBy ? new Date(input.evidenceDueBy).toISOString().replace('T', ' ').slice(0, 16) + ' UTC' : null;
    return lang === 'es'
      ? [
          `${input.merchantName}: el banco del pagador desconoció un pago y se descontaron ${amount} de su saldo.`,
          `Motivo: ${reason}.`,
          due
            ? `Puede responder con evidencia (PDF, PNG o JPEG) hasta el ${due}; después el monto queda perdido.`
            : `Puede responder con evidencia (PDF, PNG o JPEG); ${input.processor} no informó una fecha límite: responda cuanto antes.`,
          `Disputa: ${input.disputeId}`,
          `Pago: ${input.paymentIntentId}`,
          'Responda desde el panel (Disputas) o con la API: POST /dispute/{id}/evidence y luego POST /dispute/{id}/submit.',
        ]
      : [
          `${input.merchantName}: the payer's bank disputed a payment, and ${amount} was debited from your balance.`,
          `Reason: ${reason}.`,
          due
            ? `You can answer with evidence (PDF, PNG or JPEG) until ${due}; after that the amount is lost.`
            : `You can answer with evidence (PDF, PNG or JPEG); ${input.processor} gave no due date: answer as soon as you can.`,
          `Dispute: ${input.disputeId}`,
          `Payment: ${input.paymentIntentId}`,
          'Answer from the dashboard (Disputes) or the API: POST /dispute/{id}/evidence, then POST /dispute/{id}/submit.',
        ];
  };
  const html = (lang: 'es' | 'en') =>
    `<div lang="${lang}">${lines(lang)
      .map((line) => `<p>${escapeHtml(line)}</p>`)
      .join('')}</div>`;
  return {
    to: input.to,
    subject: `${input.merchantName}: disputa abierta / dispute opened (${input.disputeId})`,
    text: `${lines('es').join('\n')}\n\n---\n\n${lines('en').join('\n')}\n`,
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif">${html('es')}<hr>${html('en')}</body></html>`,
  };
}
