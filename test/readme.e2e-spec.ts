import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
/** Every page a reader is sent to: the README, docs/, CONTRIBUTING and the CHANGELOG. */
const PAGES = [
  'README.md',
  'CONTRIBUTING.md',
  'CHANGELOG.md',
  ...fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const read = (page: string) => fs.readFileSync(path.join(ROOT, page), 'utf8');

/** The README is the front door: short, and what it shows must be what runs; the pages behind it name only what exists. */
describe('the README and the docs', () => {
  it('shows the walkthrough exactly as docs/walkthrough.sh, which CI runs against the started service', () => {
    const script = fs.readFileSync(path.join(ROOT, 'docs', 'walkthrough.sh'), 'utf8');
    const body = script.split('set -euo pipefail\n')[1];
    expect(body.length).toBeGreaterThan(500);
    expect(README).toContain('```bash\n' + body + '```');
  });

  it('keeps the README a front door: at most 300 lines, the two commands on its first screen, the dashboard named', () => {
    const lines = README.split('\n');
    expect(lines.length).toBeLessThanOrEqual(300);
    const firstScreen = lines.slice(0, 60).join('\n');
    expect(firstScreen).toContain('npm install && npm start');
    expect(firstScreen).toContain('npm test');
    expect(firstScreen).toMatch(/dashboard/);
  });

  it('names only files and folders that are in the repository, and links only to pages that are', () => {
    for (const page of PAGES) {
      const text = read(page);
      const base = path.dirname(path.join(ROOT, page));
      const named = [
        ...text.matchAll(/`((?:apps|libs|docs|docker|test|\.ci)\/[\w./-]+|[\w.-]+\.(?:json|yaml|md|cjs|mjs|sh|example))`/g),
      ].map((match) => path.join(ROOT, match[1].replace(/\/$/, '')));
      const linked = [...text.matchAll(/\]\(((?!https?:|#)[^)#\s]+)(?:#[^)]*)?\)/g)].map((match) => path.join(base, match[1]));
      const missing = [...named, ...linked].filter((file) => !fs.existsSync(file)).map((file) => path.relative(ROOT, file));
      expect([page, missing]).toEqual([page, []]);
    }
  });

  it('describes the product as it is: no page speaks of issue numbers', () => {
    for (const page of PAGES.filter((p) => p !== 'CHANGELOG.md')) expect([page, read(page).match(/\bissues? \d+/gi)]).toEqual([page, null]);
  });
});
