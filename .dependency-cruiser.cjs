/**
 * Layer rules, checked by a tool rather than remembered (house style).
 * `npm run lint` runs them; `.ci/run` fails on any violation.
 */

/** Which bounded contexts (libs) each library may use, besides itself. Tests may also use `testing`. */
const CONTEXTS = {
  kernel: [],
  // The client is handed to business clients: it uses nothing of the service.
  client: [],
  config: [],
  // The dashboard's people, sessions and audit log: nothing of payments.
  'dashboard-identity': ['config', 'database', 'kernel'],
  // Prometheus metrics: a leaf every context may count in.
  observability: [],
  database: ['config', 'kernel', 'observability'],
  catalog: ['kernel'],
  businesses: ['catalog', 'config', 'database', 'kernel'],
  pages: ['kernel'],
  // The gateway seam (contract §20): the port, its capabilities, the registry, the routing across processors with its
  // circuits and health (§26), the sandbox. No processor's adapter; nothing of payments.
  gateways: ['config', 'database', 'events', 'gateway-accounts', 'kernel', 'merchants', 'observability', 'pages'],
  // Merchants' accounts at outside processors, whatever the provider.
  'gateway-accounts': ['businesses', 'catalog', 'database', 'kernel', 'merchants'],
  // Each processor's adapter behind the port (nothing else may import one but the list that registers them: processors).
  'mercado-pago': ['config', 'database', 'gateway-accounts', 'gateways', 'kernel', 'observability'],
  dlocal: ['catalog', 'config', 'database', 'gateway-accounts', 'gateways', 'kernel', 'observability'],
  processors: ['dlocal', 'gateway-accounts', 'gateways', 'mercado-pago'],
  merchants: ['businesses', 'catalog', 'database', 'kernel'],
  payers: ['catalog', 'database', 'kernel', 'merchants'],
  events: ['config', 'database', 'jobs', 'kernel', 'observability'],
  'payment-instruments': ['catalog', 'database', 'kernel', 'merchants', 'payers'],
  jobs: ['config', 'database', 'kernel', 'observability'],
  mail: ['config', 'database', 'jobs', 'kernel', 'observability'],
  links: ['catalog', 'config', 'database', 'events', 'kernel', 'mail', 'merchants', 'pages'],
  // Money after the collection (contract §19): prices, balances, settlement accounts, payouts.
  // Its mails (a payout waiting for a currency its rail cannot carry) go to the business's dashboard admins.
  settlement: [
    'catalog',
    'config',
    'dashboard-identity',
    'database',
    'events',
    'jobs',
    'kernel',
    'mail',
    'merchants',
    'observability',
    'pages',
  ],
  // What processors tell, their notices and their reports, applied to and reconciled with our records (payments, disputes).
  'processor-reports': [
    'catalog',
    'config',
    'database',
    'disputes',
    'events',
    'gateways',
    'jobs',
    'kernel',
    'merchants',
    'observability',
    'payments',
  ],
  // One payments context (issue 41): the payment intent with its attempts, refunds and ledger rows (payins), and the ledger's read model.
  payments: [
    'businesses',
    'catalog',
    'config',
    'database',
    'events',
    'gateways',
    'kernel',
    'links',
    'merchants',
    'observability',
    'payers',
    'payment-instruments',
    'settlement',
  ],
  // Recurring payments (contract §31): subscriptions and their invoices, charged through the payments context's named API.
  billing: [
    'catalog',
    'config',
    'database',
    'events',
    'gateways',
    'kernel',
    'mail',
    'merchants',
    'observability',
    'pages',
    'payers',
    'payment-instruments',
    'payments',
  ],
  // Disputes (contract §21): beside refunds; money through settlement, the intent through its public surface.
  disputes: ['config', 'database', 'events', 'gateways', 'jobs', 'kernel', 'merchants', 'payments', 'settlement'],
  // Tells people what happened: merchants' notification addresses, and the business's dashboard admins (a new settlement account).
  notifications: [
    'businesses',
    'catalog',
    'config',
    'dashboard-identity',
    'database',
    'events',
    'jobs',
    'kernel',
    'mail',
    'merchants',
    'observability',
    'pages',
    'payments',
  ],
  // Infrastructure: what it needs of the contexts (credentials, the audit trail) are ports the apps provide.
  http: ['config', 'database', 'kernel', 'observability', 'pages'],
  // Every processor's public routes through one entry that dispatches by processor: no processor's library.
  'gateway-routes': ['disputes', 'gateways', 'http', 'kernel', 'pages', 'payments', 'processor-reports', 'processors'],
  testing: ['businesses', 'config', 'database', 'kernel', 'merchants'],
};

/**
 * What the import graph cannot see: a trigger of one context's table that writes another context's
 * table, in the database. Each is named here with its reason; libs/database/src/cross-context-triggers.int-spec.ts
 * reads every trigger of the migrated database and fails on one that crosses and is not listed.
 */
const DATABASE_CROSSINGS = [
  {
    trigger: 'payin_approved_insert',
    from: 'payments',
    to: 'settlement',
    reason:
      "An approved payin's balance movement (PAYIN, or FEE in the MERCHANT funds flow) is written in the same statement as the approval, " +
      'by the database: no extra round trip on the approval path, and no approved payin without its movement, whoever writes the payin.',
  },
  {
    trigger: 'payin_approved_update',
    from: 'payments',
    to: 'settlement',
    reason: 'The same movement when a payin becomes APPROVED by an update (a gateway answer, a notification, reconciliation).',
  },
];

const FRAMEWORKS = '^node_modules/(@nestjs|typeorm|express|class-validator|class-transformer|pg|supertest)/';
/** A spec, or a fixture only specs use (in-memory ports). */
const TEST_FILE = '\\.((int-|e2e-)?spec|fixture)\\.ts$';
/** What the dashboard may use of the libraries (see dashboard-only-through-the-api). */
const DASHBOARD_MAY_USE = [
  '^libs/(client|config|dashboard-identity|database|kernel|observability|pages)/',
  '^libs/http/src/validation\\.pipe\\.ts$',
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-app-to-app',
      comment: 'Each app is deployed alone: an app never imports another app. What two apps share lives in a library.',
      severity: 'error',
      from: { path: '^apps/([^/]+)/' },
      to: { path: '^apps/', pathNot: '^apps/$1/' },
    },
    {
      name: 'processors-only-through-their-registration',
      comment:
        'A processor is one library plus one registration (docs/architecture.md): only libs/processors imports a ' +
        "processor's library; everything else reaches it through the gateway port, its capabilities and the registry.",
      severity: 'error',
      from: { path: '^(apps|libs)/', pathNot: ['^libs/(processors|mercado-pago|dlocal)/', TEST_FILE] },
      to: { path: '^libs/(mercado-pago|dlocal)/' },
    },
    {
      name: 'libs-never-import-apps',
      severity: 'error',
      from: { path: '^libs/' },
      to: { path: '^apps/' },
    },
    {
      name: 'through-the-index',
      comment:
        "A context is used only through its index.ts (@pcs/<lib>): never another library's files, never its persistence " +
        '(but services’ unit specs use the testing library’s memory unit of work, `@pcs/testing/unit-of-work`, without loading the apps).',
      severity: 'error',
      from: { path: '^libs/([^/]+)/', pathNot: '^libs/testing/src/global-(setup|teardown)\\.ts$' },
      to: { path: '^libs/', pathNot: ['^libs/$1/', '^libs/[^/]+/src/index\\.ts$', '^libs/testing/src/unit-of-work\\.ts$'] },
    },
    {
      name: 'apps-through-the-index',
      comment:
        'Apps and end-to-end tests use a library only through its index.ts (and three second entry points: the HTTP ' +
        'library’s validation pipe, `@pcs/http/validation`, which the dashboard’s forms use without the APIs’ foundation; ' +
        'the testing library’s `@pcs/testing/http`, which specs on a shared API use without loading the apps; ' +
        'the observability library’s `@pcs/observability/tracing`, which each app’s main loads before anything it instruments).',
      severity: 'error',
      from: { path: '^(apps|test)/' },
      to: {
        path: '^libs/',
        pathNot: [
          '^libs/[^/]+/src/index\\.ts$',
          '^libs/http/src/validation\\.pipe\\.ts$',
          '^libs/testing/src/http\\.ts$',
          '^libs/observability/src/tracing\\.ts$',
        ],
      },
    },
    ...Object.entries(CONTEXTS).map(([lib, allowed]) => ({
      name: `context-graph-${lib}`,
      comment: `libs/${lib} may use only: ${allowed.join(', ') || 'nothing'}.`,
      severity: 'error',
      from: { path: `^libs/${lib}/`, pathNot: TEST_FILE },
      to: { path: '^libs/([^/]+)/', pathNot: `^libs/(${[lib, ...allowed].map((l) => l.replace('-', '\\-')).join('|')})/` },
    })),
    {
      name: 'client-stands-alone',
      comment: 'libs/client runs in browsers and in business clients: Web Crypto, openapi-fetch and standardwebhooks only, no Node module.',
      severity: 'error',
      from: { path: '^libs/client/', pathNot: TEST_FILE },
      to: {
        dependencyTypes: ['core', 'npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'],
        pathNot: '^node_modules/(openapi-fetch|standardwebhooks)/',
      },
    },
    {
      name: 'domain-is-plain',
      comment: 'Domain code knows no framework, no ORM, no HTTP, and nothing of persistence.',
      severity: 'error',
      from: { path: '^libs/[^/]+/src/domain/', pathNot: TEST_FILE },
      to: { path: [FRAMEWORKS, '/persistence/'] },
    },
    {
      name: 'orm-entities-stay-home',
      comment: "A context's TypeORM entities are never used by another context.",
      severity: 'error',
      from: { path: '^libs/([^/]+)/' },
      to: { path: '\\.orm-entity\\.ts$', pathNot: '^libs/$1/' },
    },
    {
      name: 'orm-entities-stay-in-persistence',
      comment:
        'Inside a context, TypeORM entities are used only by its persistence/ folder (the repository adapters and mappers) and its module, ' +
        'which registers them. The sandbox gateway is itself an adapter standing in for a remote system: all of it is infrastructure.',
      severity: 'error',
      from: { path: '^libs/[^/]+/src/', pathNot: ['/persistence/', '\\.module\\.ts$', '^libs/gateways/src/sandbox/', TEST_FILE] },
      to: { path: '\\.orm-entity\\.ts$' },
    },
    {
      name: 'orm-stays-in-persistence',
      comment:
        'Ports and services speak in domain terms (house style): no TypeORM type above persistence. A service opens a unit of work ' +
        '(`UnitOfWork` of @pcs/kernel) and hands its `Transaction` to its ports; only persistence adapters, the sandbox processor ' +
        '(an adapter standing in for a remote system), the modules that register entities, and the infrastructure libraries ' +
        '(database, events, jobs, mail, http, testing) name TypeORM.',
      severity: 'error',
      from: {
        path: '^libs/(?!(database|events|jobs|mail|http|testing)/)[^/]+/src/',
        pathNot: ['/persistence/', '\\.module\\.ts$', '\\.orm-entity\\.ts$', '^libs/gateways/src/sandbox/', TEST_FILE],
      },
      to: { path: '(^|/)node_modules/(typeorm|@nestjs/typeorm)/' },
    },
    {
      name: 'dashboard-only-through-the-api',
      comment:
        'The dashboard reads and changes payments only through the payins API with the typed client (contract §18): ' +
        'its own context, configuration, pages, the kernel (money, currencies and the refundable rule, so it never keeps copies of ' +
        'them), the APIs’ validation pipe for its forms, and the database connection for its own tables, never a payments context.',
      severity: 'error',
      from: { path: '^apps/dashboard/', pathNot: TEST_FILE },
      to: { path: '^libs/', pathNot: DASHBOARD_MAY_USE },
    },
    {
      name: 'dashboard-specs-only-through-the-api',
      comment: 'The dashboard’s specs use what the dashboard may, and the testing library (never a payments context either).',
      severity: 'error',
      from: { path: `^apps/dashboard/.*${TEST_FILE}` },
      to: { path: '^libs/', pathNot: [...DASHBOARD_MAY_USE, '^libs/testing/'] },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^dist/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};

// Read by the cross-context triggers spec; not a dependency-cruiser option (non-enumerable, so its schema never sees it).
Object.defineProperty(module.exports, 'databaseCrossings', { value: DATABASE_CROSSINGS, enumerable: false });
