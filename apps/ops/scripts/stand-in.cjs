#!/usr/bin/env node
/**
 * `npm run stand-in -- dlocal|mercado-pago [--port N]`: one of the stand-ins
 * the tests use (libs/testing), serving on loopback, to try a processor's
 * flow by hand against `npm start` (README: "Trying dLocal by hand"). The
 * stand-in's TypeScript is transpiled in memory (it imports only Node), so
 * nothing of the test support is built into the service. Development only.
 */
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const root = path.resolve(__dirname, '..', '..', '..');
const [which, ...rest] = process.argv.slice(2);
const portAt = rest.indexOf('--port');
const port = portAt >= 0 ? Number(rest[portAt + 1]) : which === 'dlocal' ? 8090 : 8091;
const files = { dlocal: 'dlocal-stand-in.ts', 'mercado-pago': 'mercado-pago-stand-in.ts' };
if (!files[which] || !Number.isInteger(port) || port < 1 || port > 65535) {
  process.stderr.write('usage: npm run stand-in -- dlocal|mercado-pago [--port N]\n');
  process.exit(2);
}
// The stand-ins and what they import (./stand-in-server) are TypeScript that imports only Node: transpiled as they load.
require.extensions['.ts'] = (loaded, filename) => {
  const { outputText } = ts.transpileModule(fs.readFileSync(filename, 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
    fileName: filename,
  });
  loaded._compile(outputText, filename);
};
const standIns = require(path.join(root, 'libs', 'testing', 'src', files[which]));

async function main() {
  if (which === 'dlocal') {
    const credentials = { xLogin: 'local-x-login-0001', xTransKey: 'local-x-trans-key-0001', secretKey: 'local-secret-key-0001' };
    // Its Smart Fields key: the card setup page's fields (saved cards, contract §31).
    const smartFieldsKey = 'local-smart-fields-key-0001';
    const standIn = await new standIns.DLocalStandIn()
      .merchant(credentials.xLogin, credentials.xTransKey, credentials.secretKey, { smartFieldsKey })
      .start(port);
    process.stdout.write(
      `dLocal stand-in on ${standIn.url}\n` +
        `Start the service with DLOCAL_API_URL=${standIn.url} DLOCAL_SDK_URL=${standIn.url}/js/, then connect a merchant with these credentials:\n` +
        `  PUT /merchant/<merchantId>/gateway-account/dlocal ${JSON.stringify({ ...credentials, paymentMethods: ['VISA'], smartFieldsKey })}\n` +
        'Its page (the gatewayUrl) pays, rejects or leaves the payment pending; its card field takes "number MM/YY code"; Ctrl-C stops it.\n',
    );
  } else {
    const credentials = { accessToken: 'TEST-local-access-token-0001', webhookSecret: 'local-webhook-secret' };
    // Its public key and automatic payments: the card setup page's fields and saved cards' charges (contract §31).
    const settings = { publicKey: 'TEST-local-public-key-0001', offSessionEnabled: true };
    const standIn = await new standIns.MercadoPagoStandIn()
      .account(credentials.accessToken, credentials.webhookSecret, { publicKey: settings.publicKey, automaticPayments: true })
      .start(port);
    process.stdout.write(
      `Mercado Pago stand-in on ${standIn.url}\n` +
        `Start the service with MERCADOPAGO_API_URL=${standIn.url} MERCADOPAGO_SDK_URL=${standIn.url}/js/v2, then connect a merchant with these credentials:\n` +
        `  PUT /merchant/<merchantId>/gateway-account/mercado-pago ${JSON.stringify({ ...credentials, ...settings })}\n` +
        'Its init_point page approves, rejects or leaves the payment pending; Ctrl-C stops it.\n',
    );
  }
}
main().catch((error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
