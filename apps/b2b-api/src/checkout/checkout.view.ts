import { CheckoutPage } from '@pcs/payments';
import { PayerLanguage, payerForm, renderCheckoutPage, renderUnavailablePage } from '@pcs/pages';

/** The hosted checkout in each of its states (contract §13), on the one checkout template. */
export function renderCheckout(state: CheckoutPage, language: PayerLanguage, token: string): string {
  if (state.kind === 'GONE') return renderUnavailablePage('checkout', language);
  const { intent, checkout, merchantName, available } = state.view;
  const p = intent.snapshot();
  const base = `/checkout/${checkout.reference}`;
  return renderCheckoutPage(
    {
      subject: 'checkout',
      state: state.kind,
      merchantName,
      description: p.description,
      currency: p.currency,
      amount: p.amount,
      tax: p.taxAmount,
      tip: p.tipAmount,
      expiresAt: state.kind === 'CHOOSE' ? checkout.expiresAt : null,
      methods:
        state.kind === 'CHOOSE'
          ? available.map((m) => ({
              id: m.countryProcessorId,
              paymentMethod: m.paymentMethod.name,
              instrumentType: m.paymentInstrumentType.name,
            }))
          : [],
      formAction: base,
      token,
      lastError: state.kind === 'CHOOSE' ? state.lastError : null,
      installments: state.kind === 'CHOOSE' ? state.installments : null,
      gatewayUrl: state.kind === 'AT_GATEWAY' ? state.gatewayUrl : undefined,
      returnUrl: `${base}/back`,
      payer: state.kind === 'PAYER' ? payerForm(state.step) : undefined,
    },
    language,
  );
}
