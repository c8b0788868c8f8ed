import type { ProcessorFinding } from '../domain/processor-finding';
import { Transaction } from '@pcs/kernel';

/** Where processor findings wait for the account's next reconciliation run (port). */
export abstract class ProcessorFindingRepository {
  /** Keeps a finding unless the same one (gateway, kind, external id) was kept before, and announces it (`reconciliation.discrepancy`) with it: true when kept now. */
  abstract record(tx: Transaction, finding: ProcessorFinding): Promise<boolean>;
  /** The account's findings no run has shown yet, oldest first. */
  abstract unreported(tx: Transaction, merchantId: string, gateway: string): Promise<ProcessorFinding[]>;
  /** These findings are shown by run `runId` from now on. */
  abstract markReported(tx: Transaction, findingIds: readonly string[], runId: string): Promise<void>;
}
