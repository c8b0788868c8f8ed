import { Injectable } from '@nestjs/common';
import { SecretBox } from '@pcs/businesses';
import { Caller, DomainError, FundsFlow, InvalidRequestError, MerchantId, Transaction } from '@pcs/kernel';
import { MerchantService } from '@pcs/merchants';
import { credentialHint, GatewayAccountKind } from './gateway-account-kind';
import type { AccountSetting } from './gateway-account-kind';
import { GatewayAccountRepository, GatewayAccountRow } from './persistence/gateway-account.repository';

/** What the API shows of an account: its routed methods and the hints of its credentials, never a credential. */
export type GatewayAccountView = {
  readonly provider: string;
  readonly merchantId: string;
  readonly paymentMethods: readonly string[];
  readonly fundsFlow: FundsFlow;
  /** The account's settings (never a secret), as its kind declares them. */
  readonly settings: Readonly<Record<string, AccountSetting>>;
  readonly createdAt: string;
  readonly updatedAt: string;
} & Readonly<Record<`${string}Hint`, string>>;

/** An account's credentials, opened: only for its adapter's requests and the checks of what the provider sends. */
export interface GatewayCredentials {
  readonly merchantId: string;
  readonly provider: string;
  readonly paymentMethods: readonly string[];
  readonly secrets: Readonly<Record<string, string>>;
  /** What the account says besides its secrets (a public key, whether automatic payments are on). */
  readonly settings: Readonly<Record<string, AccountSetting>>;
}

/**
 * Merchants' accounts at outside processors (contracts §16, §20), one table
 * for every provider: connected, replaced or removed through the payins API
 * by the merchant's business or the merchant itself; each credential sealed
 * at rest (AES-256-GCM, bound to the merchant, the provider and the field,
 * so a ciphertext moved elsewhere does not open) and never answered, logged
 * or put in an event. Which methods each account collects is the routing
 * the gateway seam reads (one provider per method).
 */
@Injectable()
export class GatewayAccounts {
  private readonly kinds = new Map<string, GatewayAccountKind>();

  constructor(
    private readonly accounts: GatewayAccountRepository,
    private readonly merchants: MerchantService,
    private readonly secretBox: SecretBox,
  ) {}

  /** `secrets:rotate-master-key` (contract §22): every account's credentials sealed again under the current master key, in the caller's transaction; how many. */
  resealSecrets(tx: Transaction): Promise<number> {
    return this.accounts.resealAll(tx, (sealed, at) => this.secretBox.reseal(sealed, sealedFor(at.merchantId, at.provider, at.field)));
  }

  /** An adapter's registration of its provider's account kind. */
  registerKind(kind: GatewayAccountKind): void {
    this.kinds.set(kind.provider, kind);
  }

  async connect(
    caller: Caller,
    merchantId: MerchantId,
    provider: string,
    command: {
      secrets: Record<string, string>;
      paymentMethods?: string[];
      fundsFlow?: FundsFlow;
      /** The settings the request names; one it omits keeps its value (a new account: the kind's default, or none). */
      settings?: Record<string, AccountSetting | undefined>;
    },
  ): Promise<GatewayAccountView> {
    const kind = this.kindOf(provider);
    // Visible to the caller (404 otherwise), and the methods it routes are ones the merchant offers.
    const offered = await this.merchants.offeredProcessors(caller, merchantId);
    const offeredNames = new Set(offered.map((processor) => processor.paymentMethod.name));
    const paymentMethods = [...new Set(command.paymentMethods ?? kind.defaultMethods(offered))];
    const missing = paymentMethods.filter((method) => !offeredNames.has(method));
    if (missing.length > 0)
      throw new InvalidRequestError(
        ['paymentMethods'],
        `paymentMethods: the merchant does not offer ${missing.join(', ')}; route only methods it offers`,
      );
    const refusals = paymentMethods.map((method) => kind.refusal(method, offered)).filter((refusal): refusal is string => refusal !== null);
    if (refusals.length > 0) throw new InvalidRequestError(['paymentMethods'], `paymentMethods: ${refusals.join('; ')}`);
    if (paymentMethods.length === 0)
      throw new InvalidRequestError(['paymentMethods'], `paymentMethods: the merchant offers no method ${kind.displayName} collects`);
    const now = new Date();
    const existing = await this.accounts.find(merchantId, provider);
    const row: GatewayAccountRow = {
      merchantId,
      provider,
      businessId: caller.businessId,
      secretsSealed: Object.fromEntries(
        kind.secrets.map((field) => [field, this.secretBox.seal(command.secrets[field], sealedFor(merchantId, provider, field))]),
      ),
      hints: Object.fromEntries(kind.hinted.map((field) => [field, credentialHint(command.secrets[field])])),
      paymentMethods,
      settings: settingsOf(existing?.settings ?? {}, command.settings ?? {}),
      // Omitted: the account keeps its flow; a new one is the merchant's own (contract §23).
      fundsFlow: command.fundsFlow ?? existing?.fundsFlow ?? 'MERCHANT',
      createdAt: existing?.createdAt ?? now,
      updatedAt: now,
    };
    const taken = await this.accounts.put(row);
    if (taken.length > 0)
      throw new InvalidRequestError(
        ['paymentMethods'],
        `paymentMethods: ${taken.join(', ')} already routed to another processor; disconnect it there first`,
      );
    return this.view(row);
  }

  async get(caller: Caller, merchantId: MerchantId, provider: string): Promise<GatewayAccountView> {
    await this.merchants.load(caller, merchantId);
    const row = await this.accounts.find(merchantId, provider);
    if (!row) throw new DomainError('GATEWAY_ACCOUNT_NOT_FOUND', undefined, { provider: this.kindOf(provider).displayName });
    return this.view(row);
  }

  async disconnect(caller: Caller, merchantId: MerchantId, provider: string): Promise<{ success: true; merchantId: string }> {
    await this.merchants.load(caller, merchantId);
    if (!(await this.accounts.remove(merchantId, provider)))
      throw new DomainError('GATEWAY_ACCOUNT_NOT_FOUND', undefined, { provider: this.kindOf(provider).displayName });
    return { success: true, merchantId };
  }

  /** The account's settings (never a secret: nothing is opened to read them), or null when the merchant has no account there. */
  async settings(merchantId: string, provider: string, tx?: Transaction): Promise<Readonly<Record<string, AccountSetting>> | null> {
    const row = await this.accounts.find(merchantId, provider, tx);
    return row ? (row.settings ?? {}) : null;
  }

  /** The merchant's opened credentials at the provider, or null when it has no account there. */
  async credentials(merchantId: string, provider: string): Promise<GatewayCredentials | null> {
    const row = await this.accounts.find(merchantId, provider);
    if (!row) return null;
    return {
      merchantId,
      provider,
      paymentMethods: row.paymentMethods,
      settings: row.settings ?? {},
      secrets: Object.fromEntries(
        Object.entries(row.secretsSealed).map(([field, sealed]) => [
          field,
          this.secretBox.open(sealed, sealedFor(merchantId, provider, field)),
        ]),
      ),
    };
  }

  /**
   * The provider the merchant routes a payment method to, or null (the
   * catalog's gateway serves it). Asked inside a transaction, pass its
   * transaction: a second connection taken while one is held starves the pool
   * when as many such transactions run at once as it has connections.
   */
  routeOf(merchantId: string, paymentMethod: string, tx?: Transaction): Promise<string | null> {
    return this.accounts.routeOf(merchantId, paymentMethod, tx);
  }

  /** The providers the merchant is connected to (has an account at). */
  connectedProviders(merchantId: string, tx?: Transaction): Promise<string[]> {
    return this.accounts.providersOf(merchantId, tx);
  }

  /**
   * Whose account collects the merchant's payments at the provider now
   * (contract §23). An account disconnected since (a late approval) reads as
   * the merchant's own: money we cannot show we hold is never paid out.
   */
  async fundsFlowOf(merchantId: string, provider: string, tx?: Transaction): Promise<FundsFlow> {
    return (await this.accounts.fundsFlowOf(merchantId, provider, tx)) ?? 'MERCHANT';
  }

  /** The merchants with an account at the provider. */
  merchantsOf(provider: string): Promise<string[]> {
    return this.accounts.merchantsOf(provider);
  }

  /** The accounts at the provider, with when each was connected. */
  accountsOf(provider: string): Promise<{ merchantId: string; createdAt: Date }[]> {
    return this.accounts.accountsOf(provider);
  }

  private kindOf(provider: string): GatewayAccountKind {
    const kind = this.kinds.get(provider);
    if (!kind) throw new Error(`no gateway account kind ${provider} is registered`);
    return kind;
  }

  private view(row: GatewayAccountRow): GatewayAccountView {
    const hints = Object.fromEntries(Object.entries(row.hints).map(([field, hint]) => [`${field}Hint`, hint]));
    return {
      provider: row.provider,
      merchantId: row.merchantId,
      paymentMethods: row.paymentMethods,
      fundsFlow: row.fundsFlow,
      settings: row.settings ?? {},
      ...hints,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  }
}

/** The settings a replacement leaves: those it names over those the account had (an undefined one keeps its value). */
function settingsOf(
  existing: Readonly<Record<string, AccountSetting>>,
  given: Readonly<Record<string, AccountSetting | undefined>>,
): Record<string, AccountSetting> {
  const named = Object.entries(given).filter((entry): entry is [string, AccountSetting] => entry[1] !== undefined);
  return { ...existing, ...Object.fromEntries(named) };
}

/** What a gateway account's sealed credential is bound to (its associated data). */
export function sealedFor(merchantId: string, provider: string, field: string): string {
  return `gateway-account:${merchantId}:${provider}:${field}`;
}
