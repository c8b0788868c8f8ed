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
