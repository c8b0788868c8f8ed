import { Currency, DISPUTE_REASONS, DisputeReason } from '@pcs/kernel';
import { escapeHtml, formatAmount, PayerLanguage, renderPage } from '@pcs/pages';
import type { SandboxPageView } from './sandbox-desk';

type Texts = {
  readonly badge: string;
  readonly method: string;
  readonly reference: string;
  readonly approve: string;
  readonly reject: string;
  readonly pending: string;
  readonly back: string;
  readonly status: Record<SandboxPageView['status'], string>;
  readonly notFoundTitle: string;
  readonly notFound: string;
  readonly disputeTitle: string;
  readonly disputeHint: string;
  readonly disputeReason: string;
  readonly dispute: string;
  readonly reasons: Record<DisputeReason, string>;
  readonly installments: string;
  /** The test card's parts (contract §30): never a whole number, which this service never takes. */
  readonly card: string;
  readonly cardHint: string;
  readonly cardBin: string;
  readonly cardLast4: string;
  readonly cardExpiry: string;
  /** One plan: {count} installments of {installment} ({total} in all). */
  readonly plan: string;
  readonly single: string;
  readonly interestFree: string;
  readonly withInterest: string;
};

const TEXTS: Record<PayerLanguage, Texts> = {
  es: {
    badge: 'Pasarela de prueba: no se mueve dinero real',
    method: 'Medio de pago',
    reference: 'Referencia',
    approve: 'Aprobar',
    reject: 'Rechazar',
    pending: 'Dejar pendiente',
    back: 'Volver al comercio',
    status: {
      OPEN: 'Esperando su decisión.',
      PENDING: 'Quedó pendiente: el pago está en camino. Todavía puede aprobarlo o rechazarlo.',
      APPROVED: 'Pago aprobado. Puede cerrar esta ventana.',
      REJECTED: 'Pago rechazado. Puede cerrar esta ventana.',
      CANCELLED: 'Este pago fue reemplazado o cancelado.',
      EXPIRED: 'Esta página de pago venció.',
    },
    notFoundTitle: 'Pago no encontrado',
    notFound: 'No existe ningún pago con esta dirección. Revise el enlace o vuelva al comercio para empezar de nuevo.',
    disputeTitle: 'Desconocer el pago (contracargo)',
    disputeHint: 'Como lo haría el banco del pagador: el comercio ve la disputa, se le descuenta el monto y puede responder con evidencia.',
    disputeReason: 'Motivo',
    dispute: 'Abrir una disputa',
    reasons: {
      FRAUDULENT: 'No reconozco esta compra',
      PRODUCT_NOT_RECEIVED: 'No recibí el producto',
      PRODUCT_UNACCEPTABLE: 'El producto no es lo que se ofreció',
      DUPLICATE: 'Cobro duplicado',
      CREDIT_NOT_PROCESSED: 'No me devolvieron el dinero',
      SUBSCRIPTION_CANCELED: 'Cancelé la suscripción',
      GENERAL: 'Otro motivo',
    },
    installments: 'Cuotas',
    card: 'Tarjeta de prueba (opcional)',
    cardHint: 'El sandbox no pide el número completo: sus primeros seis dígitos, los últimos cuatro y el vencimiento.',
    cardBin: 'Primeros 6 dígitos',
    cardLast4: 'Últimos 4 dígitos',
    cardExpiry: 'Vencimiento (MM/AA)',
    plan: '{count} cuotas de {installment} (total {total})',
    single: 'En un pago de {total}',
    interestFree: 'sin interés',
    withInterest: 'con interés',
  },
  en: {
    badge: 'Sandbox gateway: no real money moves',
    method: 'Payment method',
    reference: 'Reference',
    approve: 'Approve',
    reject: 'Reject',
    pending: 'Leave pending',
    back: 'Back to the merchant',
    status: {
      OPEN: 'Waiting for your decision.',
      PENDING: 'Left pending: the payment is on its way. You can still approve or reject it.',
      APPROVED: 'Payment approved. You can close this window.',
      REJECTED: 'Payment rejected. You can close this window.',
      CANCELLED: 'This payment was replaced or cancelled.',
      EXPIRED: 'This payment page has expired.',
    },
    notFoundTitle: 'Payment not found',
    notFound: 'There is no payment at this address. Check the link, or go back to the merchant to start again.',
    disputeTitle: 'Dispute the payment (chargeback)',
    disputeHint: "As the payer's bank would: the merchant sees the dispute, the amount is debited, and it may answer with evidence.",
    disputeReason: 'Reason',
    dispute: 'Open a dispute',
    reasons: {
      FRAUDULENT: "I don't recognise this purchase",
      PRODUCT_NOT_RECEIVED: 'I did not receive the product',
      PRODUCT_UNACCEPTABLE: 'The product is not what was offered',
      DUPLICATE: 'Charged twice',
      CREDIT_NOT_PROCESSED: 'My refund never came',
      SUBSCRIPTION_CANCELED: 'I canceled the subscription',
      GENERAL: 'Another reason',
    },
    installments: 'Installments',
    card: 'Test card (optional)',
    cardHint: 'The sandbox never asks for the whole number: its first six digits, its last four and its expiry.',
    cardBin: 'First 6 digits',
    cardLast4: 'Last 4 digits',
    cardExpiry: 'Expiry (MM/YY)',
    plan: '{count} installments of {installment} ({total} in all)',
    single: 'In one payment of {total}',
    interestFree: 'interest-free',
    withInterest: 'with interest',
  },
  pt: {
    badge: 'Processador de teste: nenhum dinheiro real é movimentado',
    method: 'Forma de pagamento',
    reference: 'Referência',
    approve: 'Aprovar',
    reject: 'Recusar',
    pending: 'Deixar pendente',
    back: 'Voltar ao comerciante',
    status: {
      OPEN: 'Aguardando sua decisão.',
      PENDING: 'Ficou pendente: o pagamento está a caminho. Você ainda pode aprová-lo ou recusá-lo.',
      APPROVED: 'Pagamento aprovado. Você pode fechar esta janela.',
      REJECTED: 'Pagamento recusado. Você pode fechar esta janela.',
      CANCELLED: 'Este pagamento foi substituído ou cancelado.',
      EXPIRED: 'Esta página de pagamento venceu.',
    },
    notFoundTitle: 'Pagamento não encontrado',
    notFound: 'Não há nenhum pagamento neste endereço. Confira o link ou volte ao comerciante para começar de novo.',
    disputeTitle: 'Contestar o pagamento (chargeback)',
    disputeHint: 'Como o banco do pagador faria: o comerciante vê a disputa, o valor é debitado e ele pode responder com evidências.',
    disputeReason: 'Motivo',
    dispute: 'Abrir uma disputa',
    reasons: {
      FRAUDULENT: 'Não reconheço esta compra',
      PRODUCT_NOT_RECEIVED: 'Não recebi o produto',
      PRODUCT_UNACCEPTABLE: 'O produto não é o que foi oferecido',
      DUPLICATE: 'Cobrança duplicada',
      CREDIT_NOT_PROCESSED: 'Meu reembolso não chegou',
      SUBSCRIPTION_CANCELED: 'Cancelei a assinatura',
      GENERAL: 'Outro motivo',
    },
    installments: 'Parcelas',
    card: 'Cartão de teste (opcional)',
    cardHint: 'O sandbox nunca pede o número completo: os seis primeiros dígitos, os quatro últimos e a validade.',
    cardBin: 'Primeiros 6 dígitos',
    cardLast4: 'Últimos 4 dígitos',
    cardExpiry: 'Validade (MM/AA)',
    plan: '{count} parcelas de {installment} (total {total})',
    single: 'À vista, {total}',
    interestFree: 'sem juros',
    withInterest: 'com juros',
  },
};

/**
 * The sandbox checkout page: merchant, amount, method, the three decisions,
 * and the way back; once approved, the button that disputes it as the
 * payer's bank would (contract §21), and what became of that (`notice`).
 */
export function renderSandboxPage(view: SandboxPageView, language: PayerLanguage, notice?: string): string {
  const t = TEXTS[language];
  const money = (minor: number) => escapeHtml(formatAmount(minor, view.currency as Currency, language));
  const fill = (text: string, values: Record<string, string>) => text.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '');
  // The plans the payer may choose among (contract §25): shown only when the merchant offers installments.
  const plans =
    view.plans.length > 1
      ? `<fieldset class="plans" id="plans"><legend>${t.installments}</legend>${view.plans
          .map((p) => {
            const label =
              p.installments === 1
                ? fill(t.single, { total: money(p.totalAmount) })
                : `${fill(t.plan, { count: String(p.installments), installment: money(p.installmentAmount), total: money(p.totalAmount) })} · ${
                    p.totalAmount === view.amount ? t.interestFree : t.withInterest
                  }`;
            return `<label class="plan"><input type="radio" name="installments" value="${p.installments}"${
              p.installments === view.installments ? ' checked' : ''
            }> ${label}</label>`;
          })
          .join('')}</fieldset>`
      : '';
  const buttons = view.open
    ? `<form class="actions" method="post" action="/sandbox/gateway/${encodeURIComponent(view.reference)}">
${plans}
<fieldset class="card" id="card"><legend>${t.card}</legend><p class="hint">${t.cardHint}</p>
<label for="cardBin">${t.cardBin}</label><input id="cardBin" name="cardBin" inputmode="numeric" autocomplete="off" pattern="[0-9]{6}" maxlength="6">
<label for="cardLast4">${t.cardLast4}</label><input id="cardLast4" name="cardLast4" inputmode="numeric" autocomplete="off" pattern="[0-9]{4}" maxlength="4">
<label for="cardExpiry">${t.cardExpiry}</label><input id="cardExpiry" name="cardExpiry" inputmode="numeric" autocomplete="off" pattern="[0-9]{2}/[0-9]{2}" maxlength="5" placeholder="MM/AA">
</fieldset>
<button name="outcome" value="approve" class="approve">${t.approve}</button>
<button name="outcome" value="reject" class="reject">${t.reject}</button>
${view.status === 'OPEN' ? `<button name="outcome" value="pending" class="pending">${t.pending}</button>` : ''}
</form>`
    : '';
  const dispute = view.disputable
    ? `<form class="dispute" method="post" action="/sandbox/gateway/${encodeURIComponent(view.reference)}">
<h2>${t.disputeTitle}</h2><p class="hint">${t.disputeHint}</p>
<label for="reason">${t.disputeReason}</label>
<select id="reason" name="reason">${DISPUTE_REASONS.map((r) => `<option value="${r}">${escapeHtml(t.reasons[r])}</option>`).join('')}</select>
<button name="outcome" value="dispute" class="dispute" id="dispute">${t.dispute}</button>
</form>`
    : '';
  const back = view.returnUrl ? `<a class="back" id="back" href="${escapeHtml(view.returnUrl)}">${t.back}</a>` : '';
  return renderPage({
    language,
    title: `${view.merchantName} · ${t.badge}`,
    body: `<span class="badge">${t.badge}</span>
<h1 id="merchant">${escapeHtml(view.merchantName)}</h1>
<div class="amount" id="amount">${escapeHtml(formatAmount(view.amount, view.currency as Currency, language))}</div>
<dl><dt>${t.method}</dt><dd id="method">${escapeHtml(view.paymentMethod.replace(/_/g, ' '))}</dd>
<dt>${t.reference}</dt><dd><code id="reference">${escapeHtml(view.reference)}</code></dd></dl>
<p class="status" id="status" data-status="${view.status}">${t.status[view.status]}</p>
${buttons}
${notice ? `<p class="notice" role="status" id="notice">${escapeHtml(notice)}</p>` : ''}
${dispute}
${back}`,
  });
}

/** An address the sandbox has no payment for: an HTML page, never JSON. */
export function renderSandboxNotFound(language: PayerLanguage): string {
  const t = TEXTS[language];
  return renderPage({
    language,
    title: t.notFoundTitle,
    body: `<span class="badge">${t.badge}</span>
<h1 id="not-found">${t.notFoundTitle}</h1>
<p class="status">${t.notFound}</p>`,
  });
}
