import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SecretBox } from '@pcs/businesses';
import { Caller, DomainError, InvalidRequestError, MerchantId } from '@pcs/kernel';
import { MerchantService } from '@pcs/merchants';
import { GatewayAccountRepository, GatewayAccountRow } from './persistence/gateway-account.repository';

export const MERCADO_PAGO = 'MERCADO_PAGO';

/** What the API shows of an account: never the token or the secret. */
export interface MercadoPagoAccountView {
  readonly provider: 'MERCADO_PAGO';
  readonly merchantId: string;
  readonly paymentMethods: readonly string[];
  readonly accessTokenHint: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** An account's credentials, opened: only for the adapter's requests and the notification check. */
export interface MercadoPagoCredentials {
  readonly merchantId: string;
  readonly accessToken: string;
  readonly webhookSecret: string;
  readonly paymentMethods: readonly string[];
}

/**
 * A merchant's Mercado Pago account (contract §16): connected, replaced or
 * removed through the payins API by the merchant's business or the merchant
 * itself; its access token and webhook secret sealed at rest (AES-256-GCM,
 * bound to the merchant and the field, so a ciphertext moved elsewhere does
 * not open) and never answered, logged or put in an event.
 */
@Injectable()
export class MercadoPagoAccounts {
  constructor(
    private readonly accounts: GatewayAccountRepository,
    private readonly merchants: MerchantService,
    private readonly secretBox: SecretBox,
  ) {}

  async connect(
    caller: Caller,
    merchantId: MerchantId,
    command: { accessToken: string; webhookSecret: string; paymentMethods?: string[] },
  ): Promise<MercadoPagoAccountView> {
    // Visible to the caller (404 otherwise), and the methods it routes are ones the merchant offers.
    const offered = new Set((await this.merchants.paymentMethods(caller, merchantId)).map((method) => method.name));
    const paymentMethods = [...new Set(command.paymentMethods ?? [MERCADO_PAGO])];
    const missing = paymentMethods.filter((method) => !offered.has(method));
    if (missing.length > 0)
      throw new InvalidRequestError(
        ['paymentMethods'],
        `paymentMethods: the merchant does not offer ${missing.join(', ')}; route only methods it offers`,
      );
    const now = new Date();
    const existing = await this.row(merchantId);
    const row: GatewayAccountRow = {
      merchantId,
      provider: MERCADO_PAGO,
      businessId: caller.businessId,
      accessTokenSealed: this.secretBox.seal(command.accessToken, sealedFor(merchantId, 'accessToken')),
      webhookSecretSealed: this.secretBox.seal(command.webhookSecret, sealedFor(merchantId, 'webhookSecret')),
      accessTokenHint: tokenHint(command.accessToken),
      paymentMethods,
      createdAt: existing?.createdAt ?? now,
      updatedAt: now,
    };
    await this.accounts.put(row);
    return view(row);
  }

  async get(caller: Caller, merchantId: MerchantId): Promise<MercadoPagoAccountView> {
    await this.merchants.load(caller, merchantId);
    const row = await this.row(merchantId);
    if (!row) throw new DomainError('GATEWAY_ACCOUNT_NOT_FOUND');
    return view(row);
  }

  async disconnect(caller: Caller, merchantId: MerchantId): Promise<{ success: true; merchantId: string }> {
    await this.merchants.load(caller, merchantId);
    if (!(await this.accounts.remove(merchantId, MERCADO_PAGO))) throw new DomainError('GATEWAY_ACCOUNT_NOT_FOUND');
    return { success: true, merchantId };
  }

  /** The merchant's opened credentials, or null when it has no account. */
  async credentials(merchantId: string): Promise<MercadoPagoCredentials | null> {
    const row = await this.row(merchantId);
    if (!row) return null;
    return {
      merchantId,
      accessToken: this.secretBox.open(row.accessTokenSealed, sealedFor(merchantId, 'accessToken')),
      webhookSecret: this.secretBox.open(row.webhookSecretSealed, sealedFor(merchantId, 'webhookSecret')),
      paymentMethods: row.paymentMethods,
    };
  }

  /**
   * Whether the merchant's payments with this method go to Mercado Pago
   * (everything else stays on the sandbox). Asked inside a transaction, pass
   * its manager: a second connection taken while one is held starves the
   * pool when as many such transactions run at once as it has connections.
   */
  async routes(merchantId: string, paymentMethod: string, manager?: EntityManager): Promise<boolean> {
    const row = await this.accounts.find(merchantId, MERCADO_PAGO, manager);
    return row !== null && row.paymentMethods.includes(paymentMethod);
  }

  private row(merchantId: string): Promise<GatewayAccountRow | null> {
    return this.accounts.find(merchantId, MERCADO_PAGO);
  }
}

/** `…` and the last 4 characters; a token too short to keep anything back shows nothing of itself. */
function tokenHint(accessToken: string): string {
  return accessToken.length >= 12 ? `…${accessToken.slice(-4)}` : '…';
}

function sealedFor(merchantId: string, field: 'accessToken' | 'webhookSecret'): string {
  return `gateway-account:${merchantId}:MERCADO_PAGO:${field}`;
}

function view(row: GatewayAccountRow): MercadoPagoAccountView {
  return {
    provider: MERCADO_PAGO,
    merchantId: row.merchantId,
    paymentMethods: row.paymentMethods,
    accessTokenHint: row.accessTokenHint,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
