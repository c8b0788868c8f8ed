import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Layer rules (house style), checked rather than remembered:
 * - contexts reach each other only through their public index (`@pcs/<lib>`);
 * - no relative import leaves its own library;
 * - domain code knows neither TypeORM nor Nest nor HTTP;
 * - the kernel depends on no other library of the project;
 * - apps never touch a library's persistence.
 */
const ROOT = path.resolve(__dirname, '..', '..', '..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [full] : [];
  });
}

function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(/from '([^']+)'/g), ...text.matchAll(/import\('([^']+)'\)/g)].map((m) => m[1]);
}

const libs = fs.readdirSync(path.join(ROOT, 'libs')).filter((name) => name !== 'testing');

describe('architecture', () => {
  it.each(libs)('libs/%s imports other libraries only through their index and stays inside itself', (lib) => {
    const offences: string[] = [];
    for (const file of sourceFiles(path.join(ROOT, 'libs', lib, 'src'))) {
      for (const target of importsOf(file)) {
        if (/^@pcs\/[^/]+\//.test(target)) offences.push(`${file}: deep import ${target}`);
        if (target === `@pcs/${lib}`) offences.push(`${file}: imports its own index`);
        if (target.startsWith('.')) {
          const resolved = path.resolve(path.dirname(file), target);
          if (!resolved.startsWith(path.join(ROOT, 'libs', lib, 'src')))
            offences.push(`${file}: relative import out of the library: ${target}`);
        }
        if (lib === 'kernel' && target.startsWith('@pcs/')) offences.push(`${file}: the kernel depends on ${target}`);
        if (file.includes(`${path.sep}domain${path.sep}`) && /^(typeorm|@nestjs\/|express)/.test(target))
          offences.push(`${file}: domain code imports ${target}`);
      }
    }
    expect(offences).toEqual([]);
  });

  it("apps never reach into a library's files or persistence", () => {
    const offences: string[] = [];
    for (const file of sourceFiles(path.join(ROOT, 'apps'))) {
      for (const target of importsOf(file)) {
        if (/^@pcs\/[^/]+\//.test(target) || /libs\//.test(target) || /persistence/.test(target)) offences.push(`${file}: ${target}`);
      }
    }
    expect(offences).toEqual([]);
  });
});
