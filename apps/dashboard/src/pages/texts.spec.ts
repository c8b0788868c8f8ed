import { TEXTS } from './texts';

describe('the dashboard’s texts', () => {
  it('say everything in its three languages, with the same placeholders', () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const language of ['en', 'pt'] as const) {
      expect(Object.keys(TEXTS[language]).sort()).toEqual(Object.keys(TEXTS.es).sort());
      for (const key of Object.keys(TEXTS.es) as (keyof typeof TEXTS.es)[]) {
        const [es, other] = [TEXTS.es[key], TEXTS[language][key]];
        expect([language, key, es.trim().length > 0, other.trim().length > 0]).toEqual([language, key, true, true]);
        expect([language, key, placeholders(other)]).toEqual([language, key, placeholders(es)]);
      }
    }
  });

  it('name every type of balance transaction and every status of a payout in each language (contract §24)', () => {
    for (const language of ['es', 'en', 'pt'] as const) {
      const texts = TEXTS[language] as Record<string, string>;
      for (const type of [
        'PAYIN',
        'REFUND',
        'FEE',
        'CHARGEBACK',
        'CHARGEBACK_REVERSAL',
        'DISPUTE_FEE',
        'PAYOUT',
        'PAYOUT_FAILURE',
        'ADJUSTMENT',
      ])
        expect([language, type, typeof texts[`type:${type}`]]).toEqual([language, type, 'string']);
      for (const status of ['PENDING', 'IN_TRANSIT', 'PAID', 'FAILED', 'CANCELED', 'RETURNED'])
        expect([language, status, typeof texts[`payout:${status}`]]).toEqual([language, status, 'string']);
    }
    // Not the codes themselves: a person reads words.
    expect(TEXTS.pt['type:PAYOUT_FAILURE']).toBe('Saque devolvido');
    expect(TEXTS.es['payout:IN_TRANSIT']).toBe('En camino');
  });
});
