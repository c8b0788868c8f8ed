import { Injectable } from '@nestjs/common';
import { DomainError } from '@pcs/kernel';
import { DeclineKind } from './declines';
import { chargesOffSession, PaymentGateway } from './payment-gateway.port';
import { ProcessorEndpoints } from './processor-endpoints.port';
import { ProcessorLookups, ProcessorReports } from './reports/processor-reports.port';

/**
 * The adapters behind the gateway port, by provider: the sandbox, and each
 * processor's adapter, which registers itself when its module starts (the
 * one registration a new processor needs; see docs/architecture.md).
 */
@Injectable()
export class GatewayRegistry {
  private readonly gateways = new Map<string, PaymentGateway>();
  private readonly reports = new Map<string, ProcessorReports>();
  private readonly lookups = new Map<string, ProcessorLookups>();
  private readonly routes = new Map<string, ProcessorEndpoints>();

  register(gateway: PaymentGateway): void {
    this.gateways.set(gateway.name, gateway);
  }

  /** A processor that publishes settlement reports registers them too (contract §19). */
  registerReports(reports: ProcessorReports): void {
    this.reports.set(reports.provider, reports);
  }

  /** A processor whose reports cannot be fetched registers its lookups instead (contract §28). */
  registerLookups(lookups: ProcessorLookups): void {
    this.lookups.set(lookups.provider, lookups);
  }

  /** A processor with public routes (notifications, the payer's return) registers how it reads them. */
  registerEndpoints(routes: ProcessorEndpoints): void {
    this.routes.set(routes.path, routes);
  }

  /** The processor whose routes are at `path`, if any. */
  endpointsAt(path: string): ProcessorEndpoints | undefined {
    return this.routes.get(path);
  }

  /** Every processor checked by lookups, for the reconciliation runs. */
  processorLookups(): ProcessorLookups[] {
    return [...this.lookups.values()];
  }

  has(name: string): boolean {
    return this.gateways.has(name);
  }

  get(name: string): PaymentGateway {
    const gateway = this.gateways.get(name);
    if (!gateway) throw new DomainError('COUNTRY_PROCESSOR_NOT_AVAILABLE', `no adapter for gateway ${name}`);
    return gateway;
  }

  /**
   * Whether an off-session charge's refusal may be paid by a later try (contract §31): the kind the gateway that
   * wrote the refusal gives it in its decline table; a refusal no gateway knows is SOFT (declineKindIn's reason).
   */
  declineKindOf(error: string): DeclineKind {
    for (const gateway of this.gateways.values()) {
      const kind = chargesOffSession(gateway) ? gateway.declineKindOf(error) : undefined;
      if (kind) return kind;
    }
    return 'SOFT';
  }

  /** Every processor's reports, for the reconciliation runs. */
  processorReports(): ProcessorReports[] {
    return [...this.reports.values()];
  }
}
