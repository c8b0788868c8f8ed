import { notificationManifest, signNotification, verifyNotification } from './mercado-pago-signature';

/** Mercado Pago's notification signature (its notifications documentation; contract §16). */
describe('Mercado Pago notification signatures', () => {
  const now = 1_795_400_000_000;
  const ts = String(now / 1000);

  it('signs the documented manifest: data.id lower-cased when alphanumeric, absent parts left out', () => {
    expect(notificationManifest('ABC123', 'req-1', ts)).toBe(`id:abc123;request-id:req-1;ts:${ts};`);
    expect(notificationManifest('12-AB', 'req-1', ts)).toBe(`id:12-AB;request-id:req-1;ts:${ts};`);
    expect(notificationManifest(undefined, undefined, ts)).toBe(`ts:${ts};`);
    // Computed with openssl: printf '%s' 'id:123456;request-id:bb56a2f1-6aae-46ac-982e-9dcd3581d08e;ts:1742505638683;' | openssl dgst -sha256 -hmac secret
    const v1 = '3777ef58b83642364809fce92623160ddf812c70f33dfd45167137ee4963ce50';
    expect(signNotification('secret', '123456', 'bb56a2f1-6aae-46ac-982e-9dcd3581d08e', '1742505638683')).toBe(`ts=1742505638683,v1=${v1}`);
  });

  it('accepts a signature of the secret within the tolerance, in seconds or milliseconds, and refuses anything else', () => {
    const signed = signNotification('secret', '987', 'req-9', ts);
    expect(verifyNotification('secret', { signature: signed, requestId: 'req-9', dataId: '987' }, now)).toBe(true);
    const inMs = signNotification('secret', '987', 'req-9', String(now));
    expect(verifyNotification('secret', { signature: inMs, requestId: 'req-9', dataId: '987' }, now)).toBe(true);
    expect(
      verifyNotification('secret', { signature: ` ts = ${ts} , v1 = ${signed.split('v1=')[1]}`, requestId: 'req-9', dataId: '987' }, now),
    ).toBe(true);
    for (const input of [
      { signature: signed, requestId: 'req-9', dataId: '988' },
      { signature: signed, requestId: 'req-8', dataId: '987' },
      { signature: signNotification('other', '987', 'req-9', ts), requestId: 'req-9', dataId: '987' },
      { signature: undefined, requestId: 'req-9', dataId: '987' },
      { signature: `ts=${ts}`, requestId: 'req-9', dataId: '987' },
      { signature: `ts=${ts},v1=zz`, requestId: 'req-9', dataId: '987' },
    ])
      expect(verifyNotification('secret', input, now)).toBe(false);
    expect(verifyNotification('secret', { signature: signed, requestId: 'req-9', dataId: '987' }, now + 301_000)).toBe(false);
  });
});
