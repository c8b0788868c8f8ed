import { TEXTS } from './texts';

describe('the dashboard’s texts', () => {
  it('say everything in both languages, with the same placeholders', () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    expect(Object.keys(TEXTS.en).sort()).toEqual(Object.keys(TEXTS.es).sort());
    for (const key of Object.keys(TEXTS.es) as (keyof typeof TEXTS.es)[]) {
      const [es, en] = [TEXTS.es[key], TEXTS.en[key]];
      expect([key, es.trim().length > 0, en.trim().length > 0]).toEqual([key, true, true]);
      expect([key, placeholders(en)]).toEqual([key, placeholders(es)]);
    }
  });
});
