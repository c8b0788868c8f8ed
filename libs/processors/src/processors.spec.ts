import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { DLocalModule } from '@pcs/dlocal';
import { CAPABILITIES, GatewayRegistry, PaymentGateway } from '@pcs/gateways';
import { MercadoPagoModule } from '@pcs/mercado-pago';
import { loadEnvironment, processorApisOf } from '@pcs/config';
import { PROCESSOR_ACCOUNT_ROUTES, RECONCILED_PROCESSORS } from './processors.module';

/**
 * What a processor is to the rest of the service (docs/architecture.md, "Adding a processor"): the
 * capabilities its adapter implements, its public routes' reading, its account's route, all
 * registered when its module starts; and how few places outside its library name it.
 */

/** The adapters as each processor's module registers them (its providers need nothing to answer what they are). */
function registered(): { registry: GatewayRegistry; gateways: Map<string, PaymentGateway> } {
  const registry = new GatewayRegistry();
  const accounts = { registerKind: () => undefined };
  const providers = (module: object) =>
    (Reflect.getMetadata('providers', module) as (new (...args: unknown[]) => unknown)[]).map((provider) => new provider({}, {}, {}));
  for (const module of [MercadoPagoModule, DLocalModule]) {
    const instances = providers(module);
    const of = (name: string) => instances.find((instance) => (instance as object).constructor.name.endsWith(name));
    const init = new (module as unknown as new (...args: unknown[]) => { onModuleInit(): void })(
      registry,
      accounts,
      of('Gateway'),
      of(module === MercadoPagoModule ? 'ReleaseReports' : 'Lookups'),
      of('Endpoints'),
    );
    init.onModuleInit();
  }
  return { registry, gateways: new Map(['MERCADO_PAGO', 'DLOCAL'].map((name) => [name, registry.get(name)])) };
}

describe('the processors', () => {
  it('each say what they can do as capabilities, never as flags', () => {
    const capabilitiesOf = (gateway: PaymentGateway) =>
      Object.entries(CAPABILITIES)
        .filter(([, has]) => has(gateway))
        .map(([name]) => name);
    const { gateways } = registered();
    expect(capabilitiesOf(gateways.get('MERCADO_PAGO')!)).toEqual([
      'ChargesOffSession',
      'TakesDisputeEvidence',
      'QuotesInstallments',
      'ChoosesInstallmentsOnItsPage',
      'ReadsPayments',
      'ReturnsManualRefunds',
      'AnswersAfterItsPage',
      'SavesCards',
    ]);
    expect(capabilitiesOf(gateways.get('DLOCAL')!)).toEqual([
      'ChargesOffSession',
      'QuotesInstallments',
      'ChoosesInstallmentsOnItsPage',
      'VerifiesPayers',
      'ReadsPayments',
      'ReturnsManualRefunds',
      'AnswersAfterItsPage',
      'SavesCards',
      'AuthorizesRecurringPix',
    ]);
    // No boolean left on the port for a capability: what an adapter lacks, it has no member for.
    for (const gateway of gateways.values()) expect(Object.entries(gateway).filter(([, value]) => typeof value === 'boolean')).toEqual([]);
  });

  it('each register their public routes’ reading and their account’s route, under their own path', () => {
    const { registry } = registered();
    const routes = ['mercado-pago', 'dlocal', 'sandbox'].map((at) => registry.endpointsAt(at));
    expect(routes.map((r) => r && `${r.path} → ${r.gateway} (${r.displayName})`)).toEqual([
      'mercado-pago → MERCADO_PAGO (Mercado Pago)',
      'dlocal → DLOCAL (dLocal)',
      undefined,
    ]);
    // dLocal posts the payer back with a signed status; Checkout Pro returns by a GET only.
    expect(routes.map((r) => typeof r?.payerPostedBack)).toEqual(['undefined', 'function', 'undefined']);
    expect(PROCESSOR_ACCOUNT_ROUTES.map((route) => `${route.path} → ${route.provider}`)).toEqual([
      'mercado-pago → MERCADO_PAGO',
      'dlocal → DLOCAL',
    ]);
  });

  it('each find their API in the settings under their own name, and the reconciliation runs list those with reports or lookups', () => {
    const { registry, gateways } = registered();
    expect(Object.keys(processorApisOf(loadEnvironment({}))).sort()).toEqual([...gateways.keys()].sort());
    const reconciled = [...registry.processorReports(), ...registry.processorLookups()].map(({ provider }) => provider);
    expect(RECONCILED_PROCESSORS.map(({ provider }) => provider)).toEqual(reconciled);
  });

  /**
   * The places outside a processor's library whose code names it (its name, its path, its module or
   * settings; comments and prose excluded): the registration, the settings it is configured with,
   * the processors that take dispute fees, and the
   * OpenAPI documents' examples. Adding one here is adding a place every new processor must touch:
   * docs/architecture.md's count and recipe change with it.
   */
  it('are named outside their library only in the places docs/architecture.md counts', () => {
    const root = path.resolve(__dirname, '../../..');
    const files = execFileSync('git', ['ls-files', 'apps', 'libs'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter((file) => file.endsWith('.ts'))
      .filter((file) => !/\.((int-|e2e-)?spec|fixture)\.ts$/.test(file))
      .filter((file) => !/\/migrations\/|^libs\/client\/src\/generated\/|^libs\/testing\//.test(file));
    // Every identifier and string of the code, parsed (comments are no node): what the file names.
    const names = (file: string, text: string): string[] => {
      const found: string[] = [];
      const visit = (node: ts.Node): void => {
        if (ts.isIdentifier(node) || ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) found.push(node.text);
        ts.forEachChild(node, visit);
      };
      visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true));
      return found;
    };
    const placesOf = (library: string, name: RegExp) =>
      files
        .filter((file) => !file.startsWith(`libs/${library}/`))
        .filter((file) => names(file, fs.readFileSync(path.join(root, file), 'utf8')).some((n) => name.test(n)));
    const mercadoPago = placesOf('mercado-pago', /^(MERCADO_PAGO|mercado-pago|@pcs\/mercado-pago)$|^MERCADOPAGO_|MercadoPago|mercadoPago/);
    const dlocal = placesOf('dlocal', /^(DLOCAL|dlocal|@pcs\/dlocal)$|^DLOCAL_|DLocal|^dlocal[A-Z]/);
    const shared = [
      // The registration: its module and its account's route.
      'libs/processors/src/processors.module.ts',
      // Its settings (API address, timeout): the service's one list of variables, which reads them by its name.
      'libs/config/src/environment.ts',
      // The processors that take dispute fees (the disputes' answer enumerates them).
      'libs/kernel/src/disputes.ts',
      // The OpenAPI documents' examples of routing processors.
      'apps/payins-api/src/merchant/dto/merchant-configuration.dto.ts',
      'apps/payins-api/src/merchant/merchant.responses.ts',
      'apps/payins-api/src/routing/routing.responses.ts',
    ];
    expect(mercadoPago.sort()).toEqual(
      [
        ...shared,
        // MERCADO_PAGO is also a payment method (Mercado Pago's wallet), which the catalog names and dLocal collects in Argentina.
        'libs/kernel/src/enumerations.ts',
        'libs/dlocal/src/dlocal-methods.ts',
      ].sort(),
    );
    expect(dlocal.sort()).toEqual(
      [
        ...shared,
        // The intent's answer: dLocal tells the number of installments only.
        'apps/payins-api/src/payment-intent/payment-intent.responses.ts',
      ].sort(),
    );
  });
});
