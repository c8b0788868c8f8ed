/*
 * The payments context's public API, by name: what the apps and the other contexts use of it (the
 * use cases' services, the views they answer, the modules to import). Everything else — the
 * aggregates' insides, the ports, the persistence — stays inside; an export is added here when a
 * caller outside needs it, never by `export *`.
 */
export { PaymentIntentActivityModule } from './payment-intent-activity.module';
export { PaymentsModule } from './payments.module';
export { PaymentLedgerModule } from './ledger/payment-ledger.module';
export { PayinLedgerService } from './ledger/payin-ledger.service';
export type { PayinProps } from './domain/payin';
export { payinRepresentation } from './ledger/payin.representation';
export type { FindingSide, ProcessorFinding } from './domain/processor-finding';
export { PaymentAttemptsService } from './attempts/payment-attempts.service';
export { GatewayEventsService } from './gateway-events/gateway-events.service';
export { PaymentIntentCreationService } from './creation/payment-intent-creation.service';
export { FastPaymentIntentService } from './creation/fast-payment-intent.service';
export { LinkPaymentIntentService } from './creation/link-payment-intent.service';
export { PaymentIntentQueriesService } from './payment-intent-queries.service';
export { RefundsService } from './refunds/refunds.service';
export { SessionExpiryService } from './expiry/session-expiry.service';
export { CHARGE_NEVER_SENT, ReconciliationService } from './reconciliation/reconciliation.service';
export { PaymentIntentSweeps } from './payment-intent-sweeps';
export { PAYMENT_INTENT_STATUSES, PaymentIntent } from './domain/payment-intent';
export type { IntentDispute, PaymentIntentStatus } from './domain/payment-intent';
export { LinkCheckoutService } from './link-checkout/link-checkout.service';
export type { LinkPage } from './link-checkout/link-checkout.service';
export { B2bPaymentIntentsService } from './b2b/b2b-payment-intents.service';
export type { B2bPaymentIntentView } from './b2b/b2b-payment-intents.service';
export { B2bCheckoutService } from './b2b/b2b-checkout.service';
export type { CheckoutPage } from './b2b/b2b-checkout.service';
export { CheckoutExpiryService } from './b2b/checkout-expiry.service';
export { B2B_STATUS_CODES, b2bStatus } from './domain/b2b-status';
export { paymentIntentRepresentation } from './payment-intent.representation';
export { GatewayNotifications } from './gateway-events/gateway-notifications.service';
export type { NotificationResult } from './gateway-events/gateway-notifications.service';
export { IntentDisputes } from './disputes/intent-disputes.service';
export { installmentPlanRepresentation, InstallmentQuotesService } from './installments/installment-quotes.service';
export { CardTestingGuard } from './card-testing/card-testing.guard';
export { cardTestingBlockObject } from './card-testing/card-testing.records';
export type { CardTestingBlock } from './card-testing/card-testing.records';
export { CardSetupService } from './setup/card-setup.service';
export { PixSetupService } from './setup/pix-setup.service';
export type { PixStep } from './setup/pix-setup.service';
export type { SetupCard, SetupMethod, SetupPage, SetupRefusal, SetupToken, StartSetup } from './setup/card-setup.service';
export { CardSetup } from './setup/card-setup';
