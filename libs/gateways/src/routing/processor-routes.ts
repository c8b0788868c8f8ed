import { Injectable } from '@nestjs/common';
import type { PaymentGateway } from '../payment-gateway.port';
import type { RoutableProcessor } from '../gateway-routing';
import { collectionMethodOf, GatewayRouting } from '../gateway-routing';
import { Currency, DomainError, MerchantId, Transaction } from '@pcs/kernel';
import { MerchantConfigurationService, routeOf, RoutingRule } from '@pcs/merchants';
import * as crypto from 'node:crypto';

/** Where an attempt goes (contract §26): the rule that took it (null: none) and the processors to try, in order. */
export interface AttemptRoute {
  readonly rule: number | null;
  readonly gateways: readonly PaymentGateway[];
}

/** The weighted draw of an attempt: a number in [0, 1) fixed by its id (the same attempt, the same processor). */
export function drawOf(attemptId: string): number {
  return crypto.createHash('sha256').update(attemptId).digest().readUInt32BE(0) / 2 ** 32;
}

/**
 * Routing across processors (contract §26): the merchant's first rule that takes an attempt (its
 * method, country, currency and amount) names the processors to try, in order or split by weight;
 * a processor the merchant is no longer connected to, or that does not collect the method there,
 * is passed over. Without a rule that takes it, §16's and §20's one processor per method serves.
 */
@Injectable()
export class ProcessorRoutes {
  constructor(
    private readonly configurations: MerchantConfigurationService,
    private readonly routing: GatewayRouting,
  ) {}

  async routeFor(
    merchantId: MerchantId,
    processor: RoutableProcessor,
    amount: { readonly currency: Currency; readonly minor: number },
    attemptId: string,
    tx?: Transaction,
  ): Promise<AttemptRoute> {
    const rules = await this.configurations.routingFor(merchantId, tx);
    const route =
      rules.length > 0
        ? routeOf(
            rules,
            {
              paymentMethod: processor.paymentMethod.name,
              country: processor.country.iso3,
              currency: amount.currency,
              amount: amount.minor,
            },
            drawOf(attemptId),
          )
        : null;
    if (route) {
      const method = collectionMethodOf(processor);
      const connected = new Set(await this.routing.connectedProviders(merchantId, tx));
      const gateways = route.processors
        .filter((provider) => connected.has(provider))
        .map((provider) => this.routing.gatewayNamed(provider))
        .filter((gateway): gateway is PaymentGateway => gateway !== null && gateway.serves(method));
      if (gateways.length > 0) return { rule: route.rule, gateways };
    }
    return { rule: null, gateways: [await this.routing.gatewayFor(merchantId, processor, tx)] };
  }

  /**
   * Refuses rules that name a processor the merchant is not connected to (contract §26:
   * ROUTING_PROCESSOR_NOT_CONNECTED, naming the rule and the processor).
   */
  async assertConnected(merchantId: MerchantId, rules: readonly RoutingRule[], tx?: Transaction): Promise<void> {
    const connected = new Set(await this.routing.connectedProviders(merchantId, tx));
    rules.forEach((rule, index) => {
      const missing = rule.processors.find((provider) => !connected.has(provider));
      if (missing !== undefined)
        throw new DomainError('ROUTING_PROCESSOR_NOT_CONNECTED', undefined, { rule: String(index), provider: missing });
    });
  }
}
