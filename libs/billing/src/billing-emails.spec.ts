import { cardExpiringEmail, chargeDeclinedEmail, upcomingChargeEmail } from './billing-emails';

/** The payer's mails of contract §31: their languages, their dates in the merchant's zone, escaping, and the page's link. */
describe('billing mails', () => {
  const base = { to: 'ana@example.com', merchantName: 'Academia <Sul>', description: 'Plano mensal', amount: 129_90 };

  it('writes Portuguese first for BRL, Spanish first otherwise, each with English', () => {
    const brl = upcomingChargeEmail({
      ...base,
      currency: 'BRL',
      timeZone: 'America/Sao_Paulo',
      chargeAt: new Date('2027-03-01T02:30:00Z'),
    });
    const parts = brl.text.split('\n\n---\n\n');
    expect(parts).toHaveLength(3);
    // 02:30 UTC is still Feb 28 in São Paulo (UTC−3): the merchant's day.
    expect(parts[0]).toContain('Academia <Sul> cobrará 129,90 BRL em');
    expect(parts[0]).toContain('28 de fevereiro de 2027');
    expect(parts[2]).toContain('February 28, 2027');
    const uyu = upcomingChargeEmail({
      ...base,
      currency: 'UYU',
      timeZone: 'America/Montevideo',
      chargeAt: new Date('2027-03-01T12:00:00Z'),
    });
    expect(uyu.text.split('\n\n---\n\n').map((part) => part.slice(0, 14))).toEqual(['Academia <Sul>', 'Academia <Sul>']);
    expect(uyu.text).toContain('1 de marzo de 2027');
    expect(uyu.html).toContain('Academia &lt;Sul&gt;');
    expect(uyu.html).not.toContain('<Sul>');
  });

  it('links the new-card page in the HTML part, and says there is no retry when none is planned', () => {
    const url = 'https://pay.example.com/setup/3c2d1e0f-9a8b-4c7d-8e6f-5a4b3c2d1e0f';
    const mail = chargeDeclinedEmail({ ...base, currency: 'UYU', timeZone: 'America/Montevideo', retryAt: null, setupUrl: url });
    expect(mail.text).toContain(`guárdela aquí y la cobraremos enseguida: ${url}`);
    expect(mail.text).toContain('It will not be tried again');
    expect(mail.html).toContain(`<a href="${url}">${url}</a>`);
    const without = chargeDeclinedEmail({
      ...base,
      currency: 'UYU',
      timeZone: 'UTC',
      retryAt: new Date('2027-05-02T00:00:00Z'),
      setupUrl: null,
    });
    expect(without.text).not.toContain('http');
    expect(without.text).toContain('We will try again on May 2, 2027.');
  });

  it('names the card’s own month (usable through it) in a card expiry notice', () => {
    const mail = cardExpiringEmail({
      ...base,
      currency: 'UYU',
      timeZone: 'America/Montevideo',
      expiresAt: new Date(Date.UTC(2027, 6, 1)),
      setupUrl: null,
    });
    expect(mail.text).toContain('vence en 06/2027');
    expect(mail.text).toContain('Give Academia <Sul> another one.');
    expect(mail.subject).toBe('Academia <Sul>: su tarjeta vence / your card expires');
  });
});
