import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** The README is what a business client reads first: what it shows must be what runs. */
describe('the README', () => {
  it('shows the walkthrough exactly as docs/walkthrough.sh, which CI runs against the started service', () => {
    const script = fs.readFileSync(path.join(ROOT, 'docs', 'walkthrough.sh'), 'utf8');
    const body = script.split('set -euo pipefail\n')[1];
    expect(body.length).toBeGreaterThan(500);
    expect(README).toContain('```bash\n' + body + '```');
  });

  it('names only files and folders that are in the repository', () => {
    const named = [
      ...README.matchAll(/`((?:apps|libs|docs|docker|test|\.ci)\/[\w./-]+|[\w.-]+\.(?:json|yaml|md|cjs|mjs|sh|example))`/g),
    ].map((match) => match[1]);
    expect(named.length).toBeGreaterThan(10);
    const missing = named.filter((name) => !fs.existsSync(path.join(ROOT, name.replace(/\/$/, ''))));
    expect(missing).toEqual([]);
  });
});
