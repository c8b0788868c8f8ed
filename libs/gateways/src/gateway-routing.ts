import { Injectable } from '@nestjs/common';
import { GatewayAccounts } from '@pcs/gateway-accounts';
import { GatewayRegistry } from './gateway-registry';
import { CollectionMethod, PaymentGateway } from './payment-gateway.port';
import { Transaction } from '@pcs/kernel';
import { SANDBOX } from './sandbox/sandbox.gateway';

/** A catalog country processor, as far as routing reads it. */
export interface RoutableProcessor {
  /** The catalog's gateway for it (the sandbox, unless a merchant routes the method elsewhere). */
  readonly gateway: string;
  readonly country: { readonly iso3: string };
  readonly paymentInstrumentType: { readonly name: string };
  readonly paymentMethod: { readonly name: string };
}

/** The method a processor collects, in the port's terms. */
export function collectionMethodOf(processor: RoutableProcessor): CollectionMethod {
  return {
    country: processor.country.iso3,
    instrumentType: processor.paymentInstrumentType.name,
    paymentMethod: processor.paymentMethod.name,
  };
}

/**
 * The one place that decides which gateway serves a merchant's payment
 * (contracts §16, §20): the processor the merchant routes the method to with
 * its own account, when that processor collects the method in that country;
 * otherwise the catalog's gateway (the sandbox). No payment-intent service
 * names a processor.
 */
@Injectable()
export class GatewayRouting {
  constructor(
    private readonly accounts: GatewayAccounts,
    private readonly registry: GatewayRegistry,
  ) {}

  /**
   * Asked inside a transaction, pass it: a second connection taken
   * while one is held starves the pool when as many such transactions run at
   * once as it has connections.
   */
  async gatewayFor(merchantId: string, processor: RoutableProcessor, tx?: Transaction): Promise<PaymentGateway> {
    const routed = await this.accounts.routeOf(merchantId, processor.paymentMethod.name, tx);
    if (routed && this.registry.has(routed)) {
      const gateway = this.registry.get(routed);
      if (gateway.serves(collectionMethodOf(processor))) return gateway;
    }
    return this.registry.get(processor.gateway);
  }

  /** The processors the merchant may route to (contract §26): the sandbox always, and each one it is connected to. */
  async connectedProviders(merchantId: string, tx?: Transaction): Promise<string[]> {
    const connected = await this.accounts.connectedProviders(merchantId, tx);
    return [SANDBOX, ...connected.filter((provider) => provider !== SANDBOX && this.registry.has(provider))];
  }

  /** A provider's adapter, when one is registered. */
  gatewayNamed(provider: string): PaymentGateway | null {
    return this.registry.has(provider) ? this.registry.get(provider) : null;
  }
}
