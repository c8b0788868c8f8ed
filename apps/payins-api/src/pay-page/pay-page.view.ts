import { Money } from '@pcs/kernel';
import type { LinkPage } from '@pcs/payments';
import { PayerLanguage, payerForm, renderCheckoutPage, renderUnavailablePage } from '@pcs/pages';

/** The link's pay page in each of its states (contract §12), on the one checkout template. */
export function renderPayPage(state: LinkPage, language: PayerLanguage, token: string): string {
  if (state.kind === 'GONE') return renderUnavailablePage('link', language);
  const l = state.link.link.snapshot();
  return renderCheckoutPage(
    {
      subject: 'link',
      state: state.kind,
      merchantName: state.merchantName,
      description: l.description,
      currency: l.currency,
      amount: l.amount,
      tax: Money.ofMinor(l.amount, l.currency).splitVat(l.vatRateBp).tax.minor,
      tip: 0,
      expiresAt: l.expirationDate,
      methods:
        state.kind === 'CHOOSE'
          ? state.methods.map((m) => ({
              id: m.countryProcessorId,
              paymentMethod: m.paymentMethod.name,
              instrumentType: m.paymentInstrumentType.name,
            }))
          : [],
      formAction: `/pay/${l.linkId}`,
      token,
      lastError: state.kind === 'CHOOSE' ? state.lastError : null,
      installments: state.kind === 'CHOOSE' ? state.installments : null,
      gatewayUrl: state.kind === 'AT_GATEWAY' ? state.gatewayUrl : undefined,
      payer: state.kind === 'PAYER' ? payerForm(state.step) : undefined,
    },
    language,
  );
}
