import { refuseAddress, refuseWebhookUrl } from './webhook-url';

describe('where webhooks may go (contract §14)', () => {
  it.each([
    ['https://shop.example.com/hooks', false],
    ['https://8.8.8.8/hooks', false],
    ['https://[2001:4860::8888]/hooks', false],
    ['http://localhost:4000/hooks', true],
    ['http://127.0.0.1:4000/hooks', true],
  ])('accepts %s (localhost allowed: %s)', (url, allowLocalhost) => {
    expect(refuseWebhookUrl(url, allowLocalhost)).toBeNull();
  });

  it.each([
    ['http://shop.example.com/hooks', true, 'it must use https'],
    ['http://localhost:4000/hooks', false, 'it must use https'],
    ['http://127.0.0.1:4000/hooks', false, 'it must use https'],
    ['http://10.0.0.1/hooks', true, 'it must use https'],
    ['https://localhost/hooks', true, 'it points at this machine'],
    ['https://api.localhost/hooks', false, 'it points at this machine'],
    ['https://127.0.0.1/hooks', true, 'loopback'],
    ['https://2130706433/hooks', false, 'loopback'],
    ['https://10.1.2.3/hooks', false, 'private'],
    ['https://172.16.0.1/hooks', false, 'private'],
    ['https://192.168.0.10/hooks', false, 'private'],
    ['https://169.254.169.254/latest', false, 'linkLocal'],
    ['https://[fe80::1]/hooks', false, 'linkLocal'],
    ['https://[fd00::1]/hooks', false, 'uniqueLocal'],
    ['https://[::1]/hooks', false, 'loopback'],
    ['https://[::ffff:10.0.0.1]/hooks', false, 'private'],
    ['https://0.0.0.0/hooks', false, 'unspecified'],
    ['https://100.64.0.1/hooks', false, 'carrierGradeNat'],
    ['https://user:secret@shop.example.com/hooks', false, 'credentials'],
    ['shop.example.com/hooks', false, 'not an absolute URL'],
  ])('refuses %s (localhost allowed: %s): %s', (url, allowLocalhost, reason) => {
    const refusal = refuseWebhookUrl(url, allowLocalhost);
    expect(refusal?.reason).toContain(reason);
    expect(refusal?.reasonEs.length).toBeGreaterThan(0);
  });

  it('only public unicast addresses pass', () => {
    expect(refuseAddress('1.1.1.1')).toBeNull();
    expect(refuseAddress('224.0.0.1')?.reason).toContain('multicast');
    expect(refuseAddress('::ffff:127.0.0.1')?.reason).toContain('loopback');
  });
});
