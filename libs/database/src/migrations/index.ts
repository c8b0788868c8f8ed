import { InitialSchema1795300000000 } from './1795300000000-initial-schema';
import { PayersInstrumentsIntents1795400000000 } from './1795400000000-payers-instruments-intents';
import { PayinsGatewayIdempotency1795500000000 } from './1795500000000-payins-gateway-idempotency';
import { CrashRecovery1795600000000 } from './1795600000000-crash-recovery';
import { SandboxReturnUrl1795700000000 } from './1795700000000-sandbox-return-url';
import { Links1795800000000 } from './1795800000000-links';
import { MailOutbox1795900000000 } from './1795900000000-mail-outbox';
import { B2bCheckout1796000000000 } from './1796000000000-b2b-checkout';
import { EventsWebhooks1796100000000 } from './1796100000000-events-webhooks';
import { Performance1796200000000 } from './1796200000000-performance';
import { IdempotencyHolder1796300000000 } from './1796300000000-idempotency-holder';
import { GatewayAccounts1796400000000 } from './1796400000000-gateway-accounts';
import { SigningV21796500000000 } from './1796500000000-signing-v2';
import { RateLimits1796600000000 } from './1796600000000-rate-limits';
import { DashboardIdentity1796700000000 } from './1796700000000-dashboard-identity';
import { PayinAmountCount1796800000000 } from './1796800000000-payin-amount-count';
import { RefundReads1796900000000 } from './1796900000000-refund-reads';
import { Settlement1797000000000 } from './1797000000000-settlement';
import { Processors1797100000000 } from './1797100000000-processors';
import { Disputes1797200000000 } from './1797200000000-disputes';
import { DashboardSecurity1797300000000 } from './1797300000000-dashboard-security';
import { AuditChain1797400000000 } from './1797400000000-audit-chain';
import { CredentialSecrets1797500000000 } from './1797500000000-credential-secrets';
import { FundsFlow1797600000000 } from './1797600000000-funds-flow';
import { PayoutsTrusted1797700000000 } from './1797700000000-payouts-trusted';
import { Installments1797800000000 } from './1797800000000-installments';
import { IntentInstallmentPlan1797850000000 } from './1797850000000-intent-installment-plan';
import { Routing1797900000000 } from './1797900000000-routing';
import { StripedCounters1798000000000 } from './1798000000000-striped-counters';
import { RoutingCaches1798100000000 } from './1798100000000-routing-caches';
import { PayerCache1798200000000 } from './1798200000000-payer-cache';
import { BooksEqualProcessors1798300000000 } from './1798300000000-books-equal-processors';
import { SigningV31798400000000 } from './1798400000000-signing-v3';
import { AuditColumns1798500000000 } from './1798500000000-audit-columns';
import { AuditSealing1798600000000 } from './1798600000000-audit-sealing';
import { RestrictedKeys1798700000000 } from './1798700000000-restricted-keys';
import { SignInWithoutEnumeration1798800000000 } from './1798800000000-sign-in-without-enumeration';
import { RecentAdmins1798900000000 } from './1798900000000-recent-admins';
import { CardTestingGuard1799000000000 } from './1799000000000-card-testing-guard';
import { Subscriptions1799100000000 } from './1799100000000-subscriptions';
import { CardSetup1799200000000 } from './1799200000000-card-setup';
import { SavedCardProcessor1799300000000 } from './1799300000000-saved-card-processor';
import { ProcessorAccountSettings1799400000000 } from './1799400000000-processor-account-settings';
import { PixAutomatico1799500000000 } from './1799500000000-pix-automatico';

/** Every migration, in order. Listed explicitly so builds never depend on globbing. */
export const MIGRATIONS = [
  InitialSchema1795300000000,
  PayersInstrumentsIntents1795400000000,
  PayinsGatewayIdempotency1795500000000,
  CrashRecovery1795600000000,
  SandboxReturnUrl1795700000000,
  Links1795800000000,
  MailOutbox1795900000000,
  B2bCheckout1796000000000,
  EventsWebhooks1796100000000,
  Performance1796200000000,
  IdempotencyHolder1796300000000,
  GatewayAccounts1796400000000,
  SigningV21796500000000,
  RateLimits1796600000000,
  DashboardIdentity1796700000000,
  PayinAmountCount1796800000000,
  RefundReads1796900000000,
  Settlement1797000000000,
  Processors1797100000000,
  Disputes1797200000000,
  DashboardSecurity1797300000000,
  AuditChain1797400000000,
  CredentialSecrets1797500000000,
  FundsFlow1797600000000,
  PayoutsTrusted1797700000000,
  Installments1797800000000,
  IntentInstallmentPlan1797850000000,
  Routing1797900000000,
  StripedCounters1798000000000,
  RoutingCaches1798100000000,
  PayerCache1798200000000,
  BooksEqualProcessors1798300000000,
  SigningV31798400000000,
  AuditColumns1798500000000,
  AuditSealing1798600000000,
  RestrictedKeys1798700000000,
  SignInWithoutEnumeration1798800000000,
  RecentAdmins1798900000000,
  CardTestingGuard1799000000000,
  Subscriptions1799100000000,
  CardSetup1799200000000,
  SavedCardProcessor1799300000000,
  ProcessorAccountSettings1799400000000,
  PixAutomatico1799500000000,
];
