import type { EntityManager } from 'typeorm';
import type { ProcessorFinding } from '../domain/processor-finding';

/** Where processor findings wait for the account's next reconciliation run (port). */
export abstract class ProcessorFindingRepository {
  /** Keeps a finding unless the same one (gateway, kind, external id) was kept before: true when kept now. */
  abstract record(manager: EntityManager, finding: ProcessorFinding): Promise<boolean>;
  /** The account's findings no run has shown yet, oldest first. */
  abstract unreported(manager: EntityManager, merchantId: string, gateway: string): Promise<ProcessorFinding[]>;
  /** These findings are shown by run `runId` from now on. */
  abstract markReported(manager: EntityManager, findingIds: readonly string[], runId: string): Promise<void>;
}
