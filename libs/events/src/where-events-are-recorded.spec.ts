import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Each bounded context records its events in one place (house style): the
 * payments context in its repositories, with the change they announce (one
 * statement); every other context in one file of its own (settlement's
 * SettlementEvents, disputes' DisputeChanges, …). A second place is where
 * an event's shape starts to drift.
 */
const INFRASTRUCTURE = new Set(['database', 'events', 'jobs', 'mail', 'http', 'testing']);
const RECORDS = /\bEventRecorder\b/;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') && !/\.(int-)?spec\.ts$/.test(entry.name) ? [full] : [];
  });
}

describe('where events are recorded', () => {
  it('is one place per bounded context: its persistence adapters, or one file', () => {
    const libs = path.resolve(__dirname, '..', '..');
    const places = Object.fromEntries(
      fs
        .readdirSync(libs)
        .filter((lib) => !INFRASTRUCTURE.has(lib) && fs.existsSync(path.join(libs, lib, 'src')))
        .map((lib) => {
          const files = sourceFiles(path.join(libs, lib, 'src'))
            .filter((file) => RECORDS.test(fs.readFileSync(file, 'utf8')))
            .map((file) => path.relative(path.join(libs, lib, 'src'), file));
          const persistence = files.filter((file) => file.startsWith(`persistence${path.sep}`));
          return [lib, persistence.length === files.length && files.length > 0 ? ['persistence/'] : files] as [string, string[]];
        })
        .filter(([, files]) => files.length > 0),
    );
    for (const [lib, files] of Object.entries(places)) expect({ lib, files: files.length }).toEqual({ lib, files: 1 });
    // The contexts that announce anything all do (a context that stopped would be a lost event type).
    expect(Object.keys(places).sort()).toEqual(['billing', 'disputes', 'gateways', 'links', 'payments', 'processor-reports', 'settlement']);
  });
});
