import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { RuntimeSettings } from '@pcs/config';
import { CheckoutOutcomeUnknownError, ProcessorUnavailableError } from '../payment-gateway.port';
import { metrics } from '@pcs/observability';
import { BrokenCircuitError, CircuitBreakerPolicy, circuitBreaker, CircuitState, handleWhen, IBreaker } from 'cockatiel';

export type CircuitStateName = 'CLOSED' | 'OPEN' | 'HALF_OPEN';

/** A processor account's circuit opened (contract §26: the event processor.degraded). */
export interface CircuitOpened {
  readonly provider: string;
  readonly merchantId: string;
  readonly openedAt: Date;
  readonly until: Date;
  readonly reason: string;
}

/**
 * Opens after `threshold` consecutive failures that all fall within `windowMs` (contract §26:
 * 5 unreachable answers in a row within a minute); a success ends the run. Cockatiel's breakers
 * count in a row (ConsecutiveBreaker) or sample rates over time; this is the one rule it leaves to
 * a breaker of one's own (its IBreaker), while the policy (open, half-open, the probe) is its own.
 */
export class ConsecutiveWithinWindowBreaker implements IBreaker {
  state: number[] = [];

  constructor(
    private readonly threshold: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  success(): void {
    this.state = [];
  }

  failure(): boolean {
    const at = this.now();
    this.state = [...this.state, at].slice(-this.threshold);
    return this.state.length >= this.threshold && at - this.state[0] <= this.windowMs;
  }
}

/** Whether a gateway's failure is the processor being unreachable (the breaker counts it), not a refusal. */
export function isUnreachable(error: unknown): boolean {
  return error instanceof ProcessorUnavailableError || error instanceof CheckoutOutcomeUnknownError;
}

interface Circuit {
  readonly policy: CircuitBreakerPolicy;
  openedAt: number | null;
}

/**
 * One circuit breaker per processor account (contract §26): the provider and the merchant whose
 * account it is (the sandbox: per merchant too). Calls to a processor go through `run`: an
 * unreachable answer counts against the circuit; after `breakerFailures` in a row within
 * `breakerWindowMs` it opens for `breakerOpenMs` (calls are refused at once, BrokenCircuitError, and
 * routing goes to the next processor), then lets one call through (half-open): its success closes
 * the circuit, its failure opens it again. The state lives in this process (each API process keeps
 * its own, as each sees the processor itself).
 */
@Injectable()
export class ProcessorCircuits implements OnModuleDestroy {
  private readonly circuits = new Map<string, Circuit>();
  private readonly listeners = new Set<(opened: CircuitOpened) => void>();
  private readonly stopObserving: () => void;

  constructor(private readonly settings: RuntimeSettings) {
    this.stopObserving = metrics.observeCircuits(() => this.byProvider());
  }

  onModuleDestroy(): void {
    this.stopObserving();
  }

  /** Calls `opened` each time a circuit opens. */
  onOpened(opened: (event: CircuitOpened) => void): () => void {
    this.listeners.add(opened);
    return () => this.listeners.delete(opened);
  }

  /** Runs a call to the processor through its circuit; BrokenCircuitError when the circuit is open. */
  run<T>(provider: string, merchantId: string, call: () => Promise<T>): Promise<T> {
    return this.circuit(provider, merchantId).policy.execute(call);
  }

  /** Whether the circuit refuses calls now (open, and not yet due for its probe). */
  isOpen(provider: string, merchantId: string): boolean {
    return this.stateOf(provider, merchantId) === 'OPEN';
  }

  stateOf(provider: string, merchantId: string): CircuitStateName {
    const circuit = this.circuits.get(key(provider, merchantId));
    if (!circuit) return 'CLOSED';
    const state = circuit.policy.state;
    if (state === CircuitState.HalfOpen) return 'HALF_OPEN';
    if (state === CircuitState.Open || state === CircuitState.Isolated)
      // Cockatiel moves to half-open when the next call comes after the break: due for its probe reads as half-open.
      return circuit.openedAt !== null && Date.now() - circuit.openedAt >= this.settings.gateway.breakerOpenMs ? 'HALF_OPEN' : 'OPEN';
    return 'CLOSED';
  }

  private byProvider(): { provider: string; state: number; open: number }[] {
    const worst = new Map<string, { state: number; open: number }>();
    for (const k of this.circuits.keys()) {
      const [provider, merchantId] = k.split('|');
      const state = { CLOSED: 0, HALF_OPEN: 1, OPEN: 2 }[this.stateOf(provider, merchantId)];
      const seen = worst.get(provider) ?? { state: 0, open: 0 };
      worst.set(provider, { state: Math.max(seen.state, state), open: seen.open + (state === 2 ? 1 : 0) });
    }
    return [...worst].map(([provider, figures]) => ({ provider, ...figures }));
  }

  private circuit(provider: string, merchantId: string): Circuit {
    const k = key(provider, merchantId);
    const found = this.circuits.get(k);
    if (found) return found;
    const { breakerFailures, breakerWindowMs, breakerOpenMs } = this.settings.gateway;
    const policy = circuitBreaker(handleWhen(isUnreachable), {
      halfOpenAfter: breakerOpenMs,
      breaker: new ConsecutiveWithinWindowBreaker(breakerFailures, breakerWindowMs),
    });
    const circuit: Circuit = { policy, openedAt: null };
    policy.onBreak((reason) => {
      circuit.openedAt = Date.now();
      const cause = 'error' in reason ? reason.error.message : 'held open';
      const event = {
        provider,
        merchantId,
        openedAt: new Date(circuit.openedAt),
        until: new Date(circuit.openedAt + breakerOpenMs),
        reason: cause,
      };
      for (const listener of this.listeners) listener(event);
    });
    policy.onReset(() => (circuit.openedAt = null));
    this.circuits.set(k, circuit);
    return circuit;
  }
}

export { BrokenCircuitError };

function key(provider: string, merchantId: string): string {
  return `${provider}|${merchantId}`;
}
