import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { RoutableProcessor } from '../gateway-routing';
import { GatewayRouting } from '../gateway-routing';
import { Caller, Currency, DomainError, MerchantId, UnitOfWork } from '@pcs/kernel';
import { MerchantService } from '@pcs/merchants';
import { metrics } from '@pcs/observability';
import { CircuitStateName, ProcessorCircuits } from './processor-circuits';
import { ProcessorHealthRecords } from './processor-health.records';
import { ProcessorRoutes } from './processor-routes';

/** A processor account's health (contract §26: GET /health/processors). */
export interface ProcessorHealth {
  readonly provider: string;
  readonly merchantId: string;
  readonly state: CircuitStateName;
  /** 0–1 over the last hour and day; null when no attempt ended there. */
  readonly successRate1h: number | null;
  readonly successRate1d: number | null;
  /** The same per method and country it collected in the last day. */
  readonly methods: { paymentMethod: string; country: string; successRate1h: number | null; successRate1d: number | null }[];
}

/** The facts of an attempt the simulation routes (contract §26); `amount` in minor units of `currency`. */
export interface RouteQuestion {
  readonly paymentMethod: string;
  readonly country: string;
  readonly currency: Currency;
  readonly amount: number;
}

/**
 * The processors' health (contract §26): each processor account's circuit and success rates for
 * the caller's merchants, the simulation of a route, the success rates in /metrics, and the event
 * processor.degraded each time a circuit opens.
 */
@Injectable()
export class ProcessorHealthService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('ProcessorHealth');
  private stops: (() => void)[] = [];

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly records: ProcessorHealthRecords,
    private readonly circuits: ProcessorCircuits,
    private readonly routes: ProcessorRoutes,
    private readonly routing: GatewayRouting,
    private readonly merchants: MerchantService,
  ) {}

  onModuleInit(): void {
    this.stops = [
      this.circuits.onOpened((opened) => {
        this.logger.warn(`${opened.provider}'s circuit opened for merchant ${opened.merchantId} until ${opened.until.toISOString()}`);
        void this.unitOfWork
          .run((tx) => this.records.recordDegraded(tx, opened))
          .catch((error: unknown) => this.logger.error(`processor.degraded not recorded: ${(error as Error).message}`));
      }),
      metrics.observeSuccessRates(async () =>
        (await this.records.successRates(this.unitOfWork.outside)).flatMap((r) =>
          r.rate === null
            ? []
            : [{ provider: r.provider, paymentMethod: r.paymentMethod ?? '', country: r.country ?? '', window: r.window, rate: r.rate }],
        ),
      ),
    ];
  }

  onModuleDestroy(): void {
    for (const stop of this.stops) stop();
  }

  /** Each processor account of the caller's merchants: the sandbox and every processor each is connected to. */
  async health(caller: Caller): Promise<ProcessorHealth[]> {
    const merchantIds = caller.merchantId
      ? [caller.merchantId]
      : await this.records.merchantsOf(this.unitOfWork.outside, caller.businessId);
    const [rates, byMethod] = await Promise.all([
      this.records.merchantSuccessRates(this.unitOfWork.outside, merchantIds),
      this.records.merchantMethodSuccessRates(this.unitOfWork.outside, merchantIds),
    ]);
    const rateOf = (provider: string, merchantId: string, window: '1h' | '1d') =>
      rates.find((r) => r.provider === provider && r.merchantId === merchantId && r.window === window)?.rate ?? null;
    const methodsOf = (provider: string, merchantId: string) => {
      const mine = byMethod.filter((r) => r.provider === provider && r.merchantId === merchantId);
      const keys = [...new Set(mine.map((r) => `${r.paymentMethod}|${r.country}`))];
      return keys.map((k) => {
        const [paymentMethod, country] = k.split('|');
        const at = (window: '1h' | '1d') =>
          mine.find((r) => r.paymentMethod === paymentMethod && r.country === country && r.window === window)?.rate ?? null;
        return { paymentMethod, country, successRate1h: at('1h'), successRate1d: at('1d') };
      });
    };
    const health: ProcessorHealth[] = [];
    for (const merchantId of merchantIds)
      for (const provider of await this.routing.connectedProviders(merchantId))
        health.push({
          provider,
          merchantId,
          state: this.circuits.stateOf(provider, merchantId),
          successRate1h: rateOf(provider, merchantId, '1h'),
          successRate1d: rateOf(provider, merchantId, '1d'),
          methods: methodsOf(provider, merchantId),
        });
    return health;
  }

  /** The merchant is the caller's (MERCHANT_NOT_FOUND otherwise). */
  async assertVisible(caller: Caller, merchantId: MerchantId): Promise<void> {
    await this.merchants.load(caller, merchantId);
  }

  /**
   * Where an attempt with these facts would go (contract §26): the rule that takes it (null: none)
   * and its processors in the order they would be tried (a split's draw is that of an attempt id made
   * of the facts, so the answer is the same each time it is asked).
   */
  async simulate(caller: Caller, merchantId: MerchantId, question: RouteQuestion): Promise<{ rule: number | null; processors: string[] }> {
    // The method as the merchant offers it in that country (a credit card first, where it has several instrument types).
    const offered = (await this.merchants.offeredProcessors(caller, merchantId))
      .filter((p) => p.paymentMethod.name === question.paymentMethod && p.country.iso3 === question.country)
      .sort((a, b) => Number(b.paymentInstrumentType.name === 'CREDIT_CARD') - Number(a.paymentInstrumentType.name === 'CREDIT_CARD'));
    const processor: RoutableProcessor | undefined = offered[0];
    if (!processor) throw new DomainError('COUNTRY_PROCESSOR_NOT_AVAILABLE');
    const route = await this.routes.routeFor(
      merchantId,
      processor,
      { currency: question.currency, minor: question.amount },
      `simulate:${merchantId}:${question.paymentMethod}:${question.country}:${question.currency}:${question.amount}`,
    );
    return { rule: route.rule, processors: route.gateways.map((g) => g.name) };
  }
}
