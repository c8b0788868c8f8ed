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
