import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { generateWebhookSecret, signWebhook, webhookHeaders } from './webhook-signature';

describe('Standard Webhooks signatures', () => {
  const body = JSON.stringify({ id: 'evt', type: 'payment_intent.succeeded', data: { object: { amount: 12.5 } } });

  it('signs exactly as the standardwebhooks package does', () => {
    const secret = generateWebhookSecret();
    const at = new Date(1_795_000_000_000);
    expect(signWebhook(secret, 'msg_1', Math.floor(at.getTime() / 1000), body)).toBe(new Webhook(secret).sign('msg_1', at, body));
  });

  it('matches a vector computed by hand (HMAC-SHA256 of id.timestamp.body, base64)', () => {
    // echo -n 'msg_p5jXN8AQM9LWM0D4loKWxJek.1614265330.{"test": 2432232314}' | openssl dgst -sha256 -mac HMAC -macopt hexkey:$(echo -n 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' | base64 -d | xxd -p | tr -d '\n') -binary | base64
    expect(signWebhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')).toBe(
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });

  it('sends one signature per secret, each verifiable alone', () => {
    const [older, newer] = [generateWebhookSecret(), generateWebhookSecret()];
    const now = Math.floor(Date.now() / 1000);
    const headers = webhookHeaders([newer, older], 'msg_2', now, body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    for (const secret of [older, newer]) expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow();
  });
});

describe('the receiver in docs/integration.md', () => {
  it('accepts what the service signs and refuses a tampered body', async () => {
    const readme = fs.readFileSync(path.join(__dirname, '..', '..', '..', '..', 'docs', 'integration.md'), 'utf8');
    const code = /```js\n((?:(?!```)[\s\S])*new Webhook\(process\.env\.PAYMENTS_WEBHOOK_SECRET\)(?:(?!```)[\s\S])*)```/.exec(readme)?.[1];
    expect(code).toBeDefined();
    const secret = generateWebhookSecret();
    process.env.PAYMENTS_WEBHOOK_SECRET = secret;
    let server: http.Server | undefined;
    // The snippet as written; only its listen(4000) is moved to a free port.
    const load = (name: string): unknown => {
      const real = jest.requireActual<object>(name);
      if (name !== 'express') return real;
      const express = real as unknown as (() => { listen: (port: number) => http.Server }) & Record<string, unknown>;
      return Object.assign(() => {
        const app = express();
        const listen = app.listen.bind(app);
        app.listen = () => (server = listen(0));
        return app;
      }, express);
    };
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    new Function('require', code!)(load);
    await new Promise<void>((resolve) => server!.once('listening', () => resolve()));
    try {
      const { port } = server!.address() as AddressInfo;
      const event = JSON.stringify({ id: 'evt_1', type: 'payment_intent.succeeded', data: { object: { paymentIntentId: 'pi_1' } } });
      const post = (payload: string) =>
        fetch(`http://127.0.0.1:${port}/webhooks/payments`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...webhookHeaders([secret], 'evt_1', Math.floor(Date.now() / 1000), event) },
          body: payload,
        });
      expect((await post(event)).status).toBe(204);
      expect(log).toHaveBeenCalledWith('paid', 'pi_1');
      expect((await post(event.replace('pi_1', 'pi_2'))).status).toBe(400);
    } finally {
      log.mockRestore();
      await new Promise((resolve) => server!.close(resolve));
    }
  });
});
