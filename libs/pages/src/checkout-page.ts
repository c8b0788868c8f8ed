/*
 * Why one file: the payer's checkout page (the link page and the B2B checkout render it): one template with its
 * three languages side by side, as a translator reads them.
 */
/**
 * The B2B hosted checkout's page (contract §13), server-rendered in Spanish
 * and English for a 390-pixel phone. Long because it is one page: its
 * methods, the payer's details form, the return's outcome, and their texts.
 */
import { Currency } from '@pcs/kernel';
import { escapeHtml, formatAmount, formatDateTime } from './format';
import { PayerLanguage } from './language';
import { renderPage } from './layout';

/**
 * The one template of the pages where a payer pays: a link's pay page
 * (contract §12) and a B2B intent's hosted checkout (§13). The merchant, what
 * is paid for, the total with its VAT (and tip), the methods as buttons of
 * forms protected by a token, and each state after the gateway.
 */
export type CheckoutState = 'CHOOSE' | 'PAYER' | 'AT_GATEWAY' | 'PROCESSING' | 'PAID' | 'CLOSED' | 'EXPIRED';
/** Which page this is: a few texts name it. */
export type CheckoutSubject = 'link' | 'checkout';

export interface CheckoutMethod {
  /** What the form posts (a country processor id). */
  readonly id: string;
  readonly paymentMethod: string;
  readonly instrumentType: string;
}

/** The payer's details a gateway needs before it opens (contract §20): the method chosen, what was given, what is wrong. */
export interface PayerForm {
  readonly countryProcessorId: string;
  readonly paymentMethod: string;
  readonly instrumentType: string;
  readonly documentLabel: Readonly<Record<PayerLanguage, string>>;
  readonly values: { readonly name: string; readonly email: string; readonly document: string };
  readonly errors: Partial<Record<'name' | 'email' | 'document', Readonly<Record<PayerLanguage, string>>>>;
}

/** A payer step as the payment-intent services give it (structurally: pages depend on no payment context). */
export interface PayerStepLike {
  readonly countryProcessorId: string;
  readonly paymentMethod: string;
  readonly instrumentType: string;
  readonly documentLabel: Readonly<Record<PayerLanguage, string>>;
  readonly given: { readonly name: string | null; readonly email: string | null; readonly document: string | null };
  readonly problems: readonly {
    readonly field: 'name' | 'email' | 'document';
    readonly message: Readonly<Record<PayerLanguage, string>>;
  }[];
}

/** The form model of a payer step. */
export function payerForm(step: PayerStepLike): PayerForm {
  return {
    countryProcessorId: step.countryProcessorId,
    paymentMethod: step.paymentMethod,
    instrumentType: step.instrumentType,
    documentLabel: step.documentLabel,
    values: { name: step.given.name ?? '', email: step.given.email ?? '', document: step.given.document ?? '' },
    errors: Object.fromEntries(step.problems.map((problem) => [problem.field, problem.message])),
  };
}

export interface CheckoutPageModel {
  readonly subject: CheckoutSubject;
  readonly state: CheckoutState;
  readonly merchantName: string;
  readonly description: string | null;
  readonly currency: Currency;
  /** Minor units: the gross amount (VAT included, tip excluded), its VAT, and the tip. */
  readonly amount: number;
  readonly tax: number;
  readonly tip: number;
  readonly expiresAt: Date | null;
  readonly methods: readonly CheckoutMethod[];
  /** Where the method forms post, and their anti-forgery token. */
  readonly formAction: string;
  readonly token: string;
  readonly lastError: string | null;
  readonly gatewayUrl?: string;
  /** "Return to the merchant" (the B2B checkout). */
  readonly returnUrl?: string;
  /** In the PAYER state: the form of the payer's details. */
  readonly payer?: PayerForm;
  /** In the CHOOSE state: the installments the merchant offers with a credit card (contract §25), said before the payer leaves. */
  readonly installments?: { readonly maxInstallments: number; readonly interestFreeUpTo: number } | null;
}

const INSTRUMENT_TYPES: Record<PayerLanguage, Record<string, string>> = {
  es: {
    CREDIT_CARD: 'tarjeta de crédito',
    DEBIT_CARD: 'tarjeta de débito',
    PREPAID_CARD: 'tarjeta prepaga',
    CASH: 'efectivo',
    BANK_TRANSFER: 'transferencia bancaria',
    A2A: 'de cuenta a cuenta',
    PIX: 'PIX',
    WALLETS: 'billetera',
    CRYPTO: 'cripto',
  },
  en: {
    CREDIT_CARD: 'credit card',
    DEBIT_CARD: 'debit card',
    PREPAID_CARD: 'prepaid card',
    CASH: 'cash',
    BANK_TRANSFER: 'bank transfer',
    A2A: 'account to account',
    PIX: 'PIX',
    WALLETS: 'wallet',
    CRYPTO: 'crypto',
  },
  pt: {
    CREDIT_CARD: 'cartão de crédito',
    DEBIT_CARD: 'cartão de débito',
    PREPAID_CARD: 'cartão pré-pago',
    CASH: 'dinheiro',
    BANK_TRANSFER: 'transferência bancária',
    A2A: 'de conta para conta',
    PIX: 'PIX',
    WALLETS: 'carteira digital',
    CRYPTO: 'cripto',
  },
};

const TEXTS = {
  es: {
    title: 'Pagar',
    vat: (tax: string) => `IVA incluido: ${tax}`,
    tip: (tip: string) => `Propina incluida: ${tip}`,
    expires: (date: string) => `Vence el ${date}`,
    choose: 'Elija cómo pagar',
    installments: (max: number, free: number) =>
      `Con tarjeta de crédito, hasta ${max} cuotas${free >= 2 ? ` (${free} sin interés)` : ''}: elija el plan al pagar.`,
    goneTitle: { link: 'Link no disponible', checkout: 'Pago no disponible' },
    gone: { link: 'Este link de pago ya no está disponible.', checkout: 'Este pago ya no está disponible.' },
    expired: { link: 'Este link de pago venció. Pida uno nuevo al comercio.', checkout: 'El plazo para pagar venció. Vuelva al comercio.' },
    paid: 'Pago realizado. ¡Gracias!',
    processing: 'Su pago está en proceso. Le avisaremos cuando se confirme; puede cerrar esta ventana.',
    atGateway: 'Su pago quedó abierto en la pasarela.',
    continue: 'Continuar el pago',
    closed: { link: 'Este pago fue cancelado. Pida un nuevo link al comercio.', checkout: 'Este pago fue cancelado.' },
    rejected: (reason: string) => `El pago no se completó (${reason}). Puede intentarlo de nuevo.`,
    stale: 'La página venció. Ábrala de nuevo para pagar.',
    back: (merchant: string) => `Volver a ${merchant}`,
    payerTitle: 'Sus datos',
    payerIntro: (method: string) => `Para pagar con ${method}, complete sus datos.`,
    payerName: 'Nombre completo',
    payerEmail: 'Correo electrónico',
    payerContinue: 'Continuar',
    otherMethod: 'Elegir otro medio de pago',
  },
  en: {
    title: 'Pay',
    vat: (tax: string) => `VAT included: ${tax}`,
    tip: (tip: string) => `Tip included: ${tip}`,
    expires: (date: string) => `Expires on ${date}`,
    choose: 'Choose how to pay',
    installments: (max: number, free: number) =>
      `With a credit card, up to ${max} installments${free >= 2 ? ` (${free} interest-free)` : ''}: choose the plan when you pay.`,
    goneTitle: { link: 'Link not available', checkout: 'Payment not available' },
    gone: { link: 'This payment link is no longer available.', checkout: 'This payment is no longer available.' },
    expired: {
      link: 'This payment link has expired. Ask the merchant for a new one.',
      checkout: 'The time to pay has run out. Go back to the merchant.',
    },
    paid: 'Payment made. Thank you!',
    processing: 'Your payment is being processed. You will hear when it is confirmed; you can close this window.',
    atGateway: 'Your payment is still open at the gateway.',
    continue: 'Continue the payment',
    closed: { link: 'This payment was cancelled. Ask the merchant for a new link.', checkout: 'This payment was cancelled.' },
    rejected: (reason: string) => `The payment did not go through (${reason}). You can try again.`,
    stale: 'This page has expired. Open it again to pay.',
    back: (merchant: string) => `Return to ${merchant}`,
    payerTitle: 'Your details',
    payerIntro: (method: string) => `To pay with ${method}, enter your details.`,
    payerName: 'Full name',
    payerEmail: 'E-mail',
    payerContinue: 'Continue',
    otherMethod: 'Choose another payment method',
  },
  pt: {
    title: 'Pagar',
    vat: (tax: string) => `Impostos incluídos: ${tax}`,
    tip: (tip: string) => `Gorjeta incluída: ${tip}`,
    expires: (date: string) => `Vence em ${date}`,
    choose: 'Escolha como pagar',
    installments: (max: number, free: number) =>
      `No cartão de crédito, em até ${max} parcelas${free >= 2 ? ` (${free} sem juros)` : ''}: escolha o plano ao pagar.`,
    goneTitle: { link: 'Link indisponível', checkout: 'Pagamento indisponível' },
    gone: { link: 'Este link de pagamento não está mais disponível.', checkout: 'Este pagamento não está mais disponível.' },
    expired: {
      link: 'Este link de pagamento venceu. Peça um novo ao comerciante.',
      checkout: 'O prazo para pagar terminou. Volte ao comerciante.',
    },
    paid: 'Pagamento realizado. Obrigado!',
    processing: 'Seu pagamento está em processamento. Avisaremos quando for confirmado; você pode fechar esta janela.',
    atGateway: 'Seu pagamento ficou aberto no processador.',
    continue: 'Continuar o pagamento',
    closed: { link: 'Este pagamento foi cancelado. Peça um novo link ao comerciante.', checkout: 'Este pagamento foi cancelado.' },
    rejected: (reason: string) => `O pagamento não foi concluído (${reason}). Você pode tentar novamente.`,
    stale: 'A página expirou. Abra-a novamente para pagar.',
    back: (merchant: string) => `Voltar para ${merchant}`,
    payerTitle: 'Seus dados',
    payerIntro: (method: string) => `Para pagar com ${method}, informe seus dados.`,
    payerName: 'Nome completo',
    payerEmail: 'E-mail',
    payerContinue: 'Continuar',
    otherMethod: 'Escolher outra forma de pagamento',
  },
} as const;

/** How a method is named on the page: "VISA · credit card", "PIX". */
function methodName(paymentMethod: string, instrumentType: string, language: PayerLanguage): string {
  const type = INSTRUMENT_TYPES[language][instrumentType] ?? instrumentType;
  const method = paymentMethod.replace(/_/g, ' ');
  return method === type ? method : `${method} · ${type}`;
}

/** The form of the payer's details: each field with its label, its autocomplete, and what is wrong with it beside it. */
function payerFormHtml(model: CheckoutPageModel, form: PayerForm, language: PayerLanguage): string {
  const t = TEXTS[language];
  const field = (name: 'name' | 'email' | 'document', label: string, input: string) => {
    const id = `payer${name[0].toUpperCase()}${name.slice(1)}`;
    const error = form.errors[name]?.[language];
    return `<p class="field"><label for="${id}">${escapeHtml(label)}</label>
<input id="${id}" name="${id}" ${input} value="${escapeHtml(form.values[name])}" required${error ? ` aria-invalid="true" aria-describedby="${id}-error"` : ''}>
${error ? `<span class="field-error" id="${id}-error">${escapeHtml(error)}</span>` : ''}</p>`;
  };
  return `<h2 style="font-size:1rem">${t.payerTitle}</h2>
<p class="status" id="payer-intro">${escapeHtml(t.payerIntro(methodName(form.paymentMethod, form.instrumentType, language)))}</p>
<form class="payer" method="post" action="${escapeHtml(model.formAction)}">
<input type="hidden" name="token" value="${escapeHtml(model.token)}">
<input type="hidden" name="countryProcessorId" value="${escapeHtml(form.countryProcessorId)}">
${field('name', t.payerName, 'type="text" autocomplete="name" maxlength="100"')}
${field('email', t.payerEmail, 'type="email" autocomplete="email" maxlength="254"')}
${field('document', form.documentLabel[language], 'type="text" autocomplete="on" inputmode="numeric" maxlength="32"')}
<p class="actions"><button id="payer-continue">${t.payerContinue}</button></p>
</form>
<a class="back" id="other-method" href="${escapeHtml(model.formAction)}">${t.otherMethod}</a>`;
}

export function renderCheckoutPage(model: CheckoutPageModel, language: PayerLanguage): string {
  const t = TEXTS[language];
  const money = (minor: number) => formatAmount(minor, model.currency, language);
  const header = `<h1 id="merchant">${escapeHtml(model.merchantName)}</h1>
${model.description ? `<p id="description">${escapeHtml(model.description)}</p>` : ''}
<div class="amount" id="amount">${escapeHtml(money(model.amount + model.tip))}</div>
<p class="fine" id="vat">${escapeHtml(t.vat(money(model.tax)))}${model.tip ? `<br><span id="tip">${escapeHtml(t.tip(money(model.tip)))}</span>` : ''}</p>`;
  let main: string;
  switch (model.state) {
    case 'CHOOSE':
      main = `${model.lastError ? `<p class="status" id="rejected">${escapeHtml(t.rejected(model.lastError))}</p>` : ''}
${model.expiresAt ? `<p class="fine" id="expires">${escapeHtml(t.expires(formatDateTime(model.expiresAt, language)))}</p>` : ''}
<h2 style="font-size:1rem">${t.choose}</h2>
${model.installments ? `<p class="fine" id="installments">${escapeHtml(t.installments(model.installments.maxInstallments, model.installments.interestFreeUpTo))}</p>` : ''}
${[...model.methods]
  .sort((a, b) => a.instrumentType.localeCompare(b.instrumentType) || a.paymentMethod.localeCompare(b.paymentMethod))
  .map(
    (m) => `<form class="actions" method="post" action="${escapeHtml(model.formAction)}">
<input type="hidden" name="token" value="${escapeHtml(model.token)}">
<input type="hidden" name="countryProcessorId" value="${escapeHtml(m.id)}">
<button class="method" data-method="${escapeHtml(m.paymentMethod)}" data-type="${escapeHtml(m.instrumentType)}">${escapeHtml(methodName(m.paymentMethod, m.instrumentType, language))}</button>
</form>`,
  )
  .join('\n')}`;
      break;
    case 'PAYER':
      main = model.payer ? payerFormHtml(model, model.payer, language) : '';
      break;
    case 'AT_GATEWAY':
      main = `<p class="status">${t.atGateway}</p><a class="button" id="continue" href="${escapeHtml(model.gatewayUrl ?? '')}">${t.continue}</a>`;
      break;
    case 'EXPIRED':
      main = `<p class="status">${t.expired[model.subject]}</p>`;
      break;
    case 'PAID':
      main = `<p class="status">${t.paid}</p>`;
      break;
    case 'PROCESSING':
      main = `<p class="status">${t.processing}</p>`;
      break;
    default:
      main = `<p class="status">${t.closed[model.subject]}</p>`;
  }
  const back = model.returnUrl
    ? `\n<a class="back" id="return" href="${escapeHtml(model.returnUrl)}">${escapeHtml(t.back(model.merchantName))}</a>`
    : '';
  return renderPage({
    language,
    title: `${t.title} · ${model.merchantName}`,
    body: `<span id="state" data-state="${model.state}"></span>\n${header}\n${main}${back}`,
  });
}

/** A payment (link or checkout) that does not exist or is gone. */
export function renderUnavailablePage(subject: CheckoutSubject, language: PayerLanguage): string {
  const t = TEXTS[language];
  return renderPage({
    language,
    title: t.goneTitle[subject],
    body: `<h1 id="state" data-state="GONE">${t.goneTitle[subject]}</h1><p class="status">${t.gone[subject]}</p>`,
  });
}

/** A form post that did not come from the page (no or wrong token): nothing happened. */
export function renderStalePage(language: PayerLanguage): string {
  return renderPage({
    language,
    title: TEXTS[language].title,
    body: `<h1 id="state" data-state="STALE">${TEXTS[language].title}</h1><p class="status">${TEXTS[language].stale}</p>`,
  });
}

const PROCESSING: Record<PayerLanguage, { title: string; body: (processor: string) => string }> = {
  es: { title: 'Gracias', body: (processor) => `${processor} está procesando su pago. Puede cerrar esta página.` },
  en: { title: 'Thank you', body: (processor) => `${processor} is processing your payment. You may close this page.` },
  pt: { title: 'Obrigado', body: (processor) => `O ${processor} está processando seu pagamento. Você pode fechar esta página.` },
};

/** The payer back from a processor's page with nowhere of ours to go on to: thanks, the outcome comes by notification. */
export function renderProcessingPage(processor: string, language: PayerLanguage): string {
  const t = PROCESSING[language];
  return renderPage({
    language,
    title: t.title,
    body: `<h1 id="state" data-state="RETURNED">${t.title}</h1><p class="status">${escapeHtml(t.body(processor))}</p>`,
  });
}
