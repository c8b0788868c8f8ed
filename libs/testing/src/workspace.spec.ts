import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The workspace's lists say what is there (issue 41: nest-cli.json had
 * drifted to 27 of 34 projects): every app and every library is a project of
 * nest-cli.json pointing at files that exist, every library has its
 * `@pcs/<lib>` path in tsconfig.json and its rule in the dependency graph,
 * and nothing is listed that is gone.
 */
const root = path.join(__dirname, '..', '..', '..');
const dirs = (folder: string) =>
  fs
    .readdirSync(path.join(root, folder), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
const apps = dirs('apps');
const libs = dirs('libs');

describe('the workspace lists', () => {
  it('nest-cli.json has every app and library as a project, and only those', () => {
    const nest = JSON.parse(fs.readFileSync(path.join(root, 'nest-cli.json'), 'utf8')) as {
      projects: Record<string, { type: string; root: string; entryFile: string; sourceRoot: string }>;
    };
    expect(Object.keys(nest.projects).sort()).toEqual([...apps, ...libs].sort());
    for (const [name, project] of Object.entries(nest.projects)) {
      const application = project.type === 'application';
      expect(project.root).toBe(`${application ? 'apps' : 'libs'}/${name}`);
      expect(fs.existsSync(path.join(root, project.sourceRoot))).toBe(true);
      const entry = application ? `${project.entryFile}.ts` : path.join(project.sourceRoot, `${project.entryFile}.ts`);
      expect(fs.existsSync(path.join(root, entry))).toBe(true);
    }
  });

  it('every library has its @pcs path and its rule in the dependency graph', () => {
    const tsconfig = fs.readFileSync(path.join(root, 'tsconfig.json'), 'utf8');
    const paths = [...tsconfig.matchAll(/"@pcs\/([a-z-]+)": \["libs\/([a-z-]+)\/src"\]/g)].map(([, alias, folder]) => {
      expect(alias).toBe(folder);
      return alias;
    });
    expect(paths.sort()).toEqual(libs);
    const rules = fs.readFileSync(path.join(root, '.dependency-cruiser.cjs'), 'utf8');
    const graph = rules.slice(rules.indexOf('const CONTEXTS = {'), rules.indexOf('};', rules.indexOf('const CONTEXTS = {')));
    const contexts = [...graph.matchAll(/^ {2}'?([a-z-]+)'?: \[/gm)].map(([, name]) => name).sort();
    expect(contexts).toEqual(libs);
  });
});

/** Every source file of apps/ and libs/ (not specs, fixtures, generated code or migrations), with its text. */
function sources(): { file: string; text: string }[] {
  const found: { file: string; text: string }[] = [];
  const walk = (folder: string) => {
    for (const entry of fs.readdirSync(path.join(root, folder), { withFileTypes: true })) {
      const relative = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!['node_modules', 'generated', 'migrations'].includes(entry.name)) walk(relative);
      } else if (/\.ts$/.test(entry.name) && !/\.(int-|e2e-)?spec\.ts$|\.fixture\.ts$/.test(entry.name)) {
        found.push({ file: relative, text: fs.readFileSync(path.join(root, relative), 'utf8') });
      }
    }
  };
  walk('apps');
  walk('libs');
  return found;
}

describe('the house', () => {
  it('has every source file over 300 lines say at its top why it is one file', () => {
    const long = sources().filter(({ text }) => text.split('\n').length > 300);
    expect(long.length).toBeGreaterThan(10);
    const silent = long
      .filter(({ text }) => !/Why one file:|Long on purpose:|Kept in one file/.test(text.split('\n').slice(0, 40).join('\n')))
      .map(({ file }) => file);
    expect(silent).toEqual([]);
  });
});
