import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * SQL stays in the persistence layer: statements are run only by persistence
 * adapters (`persistence/`, the job queue's and the mail outbox's included)
 * and the sandbox processor (an adapter with its own tables). The database
 * library itself, the testing library, the events' transactional outbox every
 * context writes through, and the HTTP layer's idempotency records, rate
 * counters and audit ride run their own.
 */
const INFRASTRUCTURE = new Set(['database', 'events', 'http', 'testing']);
const ADAPTER_FOLDERS = [`${path.sep}persistence${path.sep}`, `gateways${path.sep}src${path.sep}sandbox${path.sep}`];
const RUNS_SQL = /\.query\s*(<[^>]*>)?\s*\(|queryPrepared\s*(<[^>]*>)?\s*\(|runChange\s*\(/;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') && !/\.(int-)?spec\.ts$/.test(entry.name) ? [full] : [];
  });
}

describe('where SQL runs', () => {
  it('is in persistence adapters only, in every bounded context', () => {
    const libs = path.resolve(__dirname, '..', '..');
    const offenders = fs
      .readdirSync(libs)
      .filter((lib) => !INFRASTRUCTURE.has(lib))
      .flatMap((lib) => sourceFiles(path.join(libs, lib, 'src')))
      .filter((file) => !ADAPTER_FOLDERS.some((folder) => file.includes(folder)))
      .filter((file) => RUNS_SQL.test(fs.readFileSync(file, 'utf8')))
      .map((file) => path.relative(libs, file));
    expect(offenders).toEqual([]);
  });

  it('speaks to its ports in domain words: no statement builder, SQL condition or constraint name above persistence', () => {
    const libs = path.resolve(__dirname, '..', '..');
    // What only persistence reads: the statement builders (a Precondition or ChangeAlongside crosses ports instead), the
    // readers of the database's failures, and the constraints' names (a port answers AlreadyRecordedError, false or null).
    const persistenceOnly =
      /import (type )?\{[^}]*\b(Guard|Requirement|isUniqueViolation|isRequirementFailure|writtenIfRequired)\b[^}]*\} from '@pcs\/database'|_(pkey|key|fkey|check)'/;
    const offenders = fs
      .readdirSync(libs)
      .filter((lib) => !INFRASTRUCTURE.has(lib))
      .flatMap((lib) => sourceFiles(path.join(libs, lib, 'src')))
      .filter((file) => !ADAPTER_FOLDERS.some((folder) => file.includes(folder)))
      .filter((file) => persistenceOnly.test(fs.readFileSync(file, 'utf8')))
      .map((file) => path.relative(libs, file));
    expect(offenders).toEqual([]);
  });
});
