import type { AuditEntry, Caller, SignatureVersion } from '@pcs/kernel';

/**
 * What the APIs' shared HTTP layer asks of the contexts, as ports the apps provide
 * (`HttpFoundationModule.forRoot({ credentials, audit })`): the layer knows no context; the apps
 * wire the businesses context's credentials and the dashboard identity's audit trail in.
 */

/** The credentials a signed request is verified against (contract §5, §22, §29). */
export abstract class RequestCredentials {
  /**
   * The caller of a request whose signature `matches` says a secret made, or why it was refused: a
   * version below the credential's floor, or anything else. A miss takes the time of a hit.
   */
  abstract verify(
    apiKey: string,
    matches: (secret: string) => boolean,
    version: SignatureVersion,
  ): Promise<{ caller: Caller } | { refused: 'signature' | 'version' }>;
  /** Whether a signature (its `record`) is seen for the first time within the window: a replay is refused. */
  abstract acceptOnce(apiKey: string, record: string, timestampSeconds: number, toleranceSeconds: number): Promise<boolean>;
  /** Forgets a signature accepted once, so a request that changed nothing may be sent again. */
  abstract forgetSigned(apiKey: string, signature: string): Promise<void>;
}

/**
 * The audit trail a change's entry is written to with the change, then sealed into the chain by
 * the trail itself (started with the app, stopped before its connections close).
 */
export abstract class AuditTrail {
  /** The entry as one statement, to run inside the change's own transaction (AuditRide, libs/database). */
  abstract insertion(entry: AuditEntry): { sql: string; parameters: unknown[] };
  /** The entry written on its own (a request whose change committed nothing). */
  abstract append(entry: AuditEntry): Promise<void>;
  /** Starts sealing what is written into the chain. */
  abstract start(): void;
  /** Seals once more and stops. */
  abstract stop(): Promise<void>;
}
