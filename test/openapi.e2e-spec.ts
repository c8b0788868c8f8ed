import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { OpenAPIObject } from '@nestjs/swagger';
import { serializeOpenApiDocument } from '@pcs/http';
import { b2bOpenApiDocument } from '../apps/b2b-api/src/openapi';
import { payinsOpenApiDocument } from '../apps/payins-api/src/openapi';

/**
 * The committed OpenAPI documents are what clients read: they must match the
 * code, and the typed client (libs/client) must be generated from them. When
 * this fails, run `npm run openapi` and commit the result.
 */
describe('OpenAPI documents', () => {
  let documents: Record<'payins-api' | 'b2b-api', OpenAPIObject>;

  beforeAll(async () => {
    documents = { 'payins-api': await payinsOpenApiDocument(), 'b2b-api': await b2bOpenApiDocument() };
  });

  it.each(['payins-api', 'b2b-api'] as const)('docs/openapi/%s.json matches the code', (name) => {
    const committed = fs.readFileSync(path.join(__dirname, '..', 'docs', 'openapi', `${name}.json`), 'utf8');
    expect(serializeOpenApiDocument(documents[name])).toBe(committed);
  });

  it.each(['payins-api', 'b2b-api'] as const)(
    'libs/client/src/generated/%s.ts is what openapi-typescript makes of the committed document',
    (name) => {
      const root = path.join(__dirname, '..');
      const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'client-')), `${name}.ts`);
      execFileSync(
        process.execPath,
        [
          path.join(__dirname, '..', 'node_modules', 'openapi-typescript', 'bin', 'cli.js'),
          '--default-non-nullable',
          'false',
          `docs/openapi/${name}.json`,
          '-o',
          out,
        ],
        { cwd: root, stdio: 'pipe' },
      );
      expect(fs.readFileSync(out, 'utf8')).toBe(
        fs.readFileSync(path.join(root, 'libs', 'client', 'src', 'generated', `${name}.ts`), 'utf8'),
      );
    },
  );

  it.each(['payins-api', 'b2b-api'] as const)(
    '%s declares no property as a bare object (a nullable string without its type reads as one)',
    (name) => {
      const bare: string[] = [];
      for (const [schemaName, schema] of Object.entries(documents[name].components?.schemas ?? {})) {
        for (const [property, declared] of Object.entries(
          (schema as { properties?: Record<string, Record<string, unknown>> }).properties ?? {},
        )) {
          if (declared.type === 'object' && !declared.properties && !declared.additionalProperties && !declared.allOf)
            bare.push(`${schemaName}.${property}`);
        }
      }
      expect(bare).toEqual([]);
    },
  );

  it('documents every operation of the payins API as signed with both headers, except health and metrics, each with a description', () => {
    expect(documents['payins-api'].servers).toEqual([{ url: 'http://localhost:3000', description: 'npm start on this machine' }]);
    expect(documents['b2b-api'].servers).toEqual([{ url: 'http://localhost:3001', description: 'npm start on this machine' }]);
    for (const [route, operations] of Object.entries(documents['payins-api'].paths)) {
      for (const [method, operation] of Object.entries(
        operations as Record<string, { security?: unknown; summary?: string; description?: string }>,
      )) {
        expect(operation.summary).toEqual(expect.any(String));
        expect({ route, method, described: (operation.description ?? '').length > 20 }).toEqual({ route, method, described: true });
        if (route === '/health' || route === '/metrics') expect(operation.security).toEqual([]);
        else
          expect({ route, method, security: operation.security }).toEqual({ route, method, security: [{ 'api-key': [], signature: [] }] });
      }
    }
  });

  it('names each operation of the foundation with its specification name', () => {
    const summaries = Object.values(documents['payins-api'].paths).flatMap((ops) =>
      Object.values(ops as Record<string, { summary: string }>).map((o) => o.summary),
    );
    for (const name of [
      'List merchants (paged)',
      'Get a merchant',
      'Update a merchant',
      'Delete a merchant',
      'Get the payment methods of a merchant',
      'Get merchant configuration',
      'Create or update configuration of a merchant',
      'Get country processors of a merchant',
      'Create relationships between a merchant and country processors',
      'Get the available payment methods',
      'Update a merchant country processor (status of the relationship and the country processor)',
      'Get business country processors',
    ]) {
      expect(summaries).toContain(name);
    }
  });
});
