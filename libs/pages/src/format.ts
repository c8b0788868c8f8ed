import { Currency, currencyExponent, wireAmount } from '@pcs/kernel';
import { PageLanguage } from './language';

const LOCALES: Record<PageLanguage, string> = { es: 'es-UY', en: 'en-US' };

/** An amount as a payer reads it: every decimal of its currency, grouped for the page's language (1.234,50 UYU · 1,234.50 UYU). */
export function formatAmount(minor: number, currency: Currency, language: PageLanguage): string {
  const digits = currencyExponent(currency);
  const text = wireAmount(minor, currency).toLocaleString(LOCALES[language], {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  return `${text} ${currency}`;
}

/** A date and time as a payer reads it, in the page's language (UTC, said so). */
export function formatDateTime(date: Date, language: PageLanguage): string {
  return `${date.toLocaleString(LOCALES[language], { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' })} UTC`;
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe to place inside HTML, in elements and in quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}
