import { Currency, currencyExponent, wireAmount } from '@pcs/kernel';
import { PayerLanguage } from './language';

const LOCALES: Record<PayerLanguage, string> = { es: 'es-UY', en: 'en-US', pt: 'pt-BR' };

/** An amount as a payer reads it: every decimal of its currency, grouped for the page's language (1.234,50 UYU · 1,234.50 UYU). */
export function formatAmount(minor: number, currency: Currency, language: PayerLanguage): string {
  const digits = currencyExponent(currency);
  const text = wireAmount(minor, currency).toLocaleString(LOCALES[language], {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  return `${text} ${currency}`;
}

/** A date and time as a payer reads it, in the page's language (UTC, said so). */
export function formatDateTime(date: Date, language: PayerLanguage): string {
  return `${date.toLocaleString(LOCALES[language], { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' })} UTC`;
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe to place inside HTML, in elements and in quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}
