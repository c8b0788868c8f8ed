import { Currency } from '@pcs/kernel';
import { escapeHtml, formatAmount } from './format';
import { pageLanguage, payerLanguage } from './language';

describe('pages: language and formatting', () => {
  it('is Spanish unless the browser prefers English or Portuguese', () => {
    expect(pageLanguage(undefined)).toBe('es');
    expect(pageLanguage('*')).toBe('es');
    expect(pageLanguage('fr-FR,fr;q=0.9')).toBe('es');
    expect(pageLanguage('en-US,en;q=0.9')).toBe('en');
    expect(pageLanguage('es-UY,es;q=0.9,en;q=0.8')).toBe('es');
    expect(pageLanguage('fr;q=1, en;q=0.5, es;q=0.4')).toBe('en');
    expect(pageLanguage('es;q=0.2, en;q=0.3')).toBe('en');
    expect(pageLanguage('en;q=0, es')).toBe('es');
  });

  it('speaks Portuguese to a payer, and on the dashboard (contract §24), when the browser prefers it', () => {
    expect(payerLanguage('pt-BR,pt;q=0.9,en;q=0.8')).toBe('pt');
    expect(payerLanguage('en;q=0.5, pt-PT;q=0.7')).toBe('pt');
    expect(payerLanguage('fr, es;q=0.3, pt;q=0.2')).toBe('es');
    expect(payerLanguage(undefined)).toBe('es');
    expect(payerLanguage('de')).toBe('es');
    expect(pageLanguage('pt-BR,pt;q=0.9')).toBe('pt');
    expect(pageLanguage('es-UY, pt;q=0.9')).toBe('es');
    expect(pageLanguage('fr, pt;q=0.5, en;q=0.4')).toBe('pt');
  });

  it('shows every decimal of the currency, grouped for the language', () => {
    expect(formatAmount(123450, Currency.BRL, 'pt')).toBe('1.234,50 BRL');
    expect(formatAmount(123450, Currency.UYU, 'en')).toBe('1,234.50 UYU');
    expect(formatAmount(123450, Currency.UYU, 'es')).toBe('1.234,50 UYU');
    expect(formatAmount(1500, Currency.CLP, 'es')).toBe('1.500 CLP');
    expect(formatAmount(5, Currency.USD, 'en')).toBe('0.05 USD');
  });

  it('escapes what it places in HTML', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });
});
