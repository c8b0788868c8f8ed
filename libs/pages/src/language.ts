/**
 * The languages of the operations dashboard (contract §18): Spanish, English,
 * and Portuguese for Brazilian merchants (contract §24).
 */
export type PageLanguage = 'es' | 'en' | 'pt';

/**
 * The languages of the pages a payer sees (contracts §12, §13, §20): Spanish,
 * English, and Portuguese for Brazilian payers.
 */
export type PayerLanguage = PageLanguage;

/** The browser's Accept-Language ranges, best first (quality, then order); refused ones (q=0) left out. */
function ranges(acceptLanguage: string): string[] {
  return acceptLanguage
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find(Boolean);
      return { tag: tag.trim(), q: q ? Number(q[1]) : 1, index };
    })
    .filter((r) => r.q > 0 && Number.isFinite(r.q))
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((r) => r.tag);
}

function firstOf<L extends string>(acceptLanguage: string | undefined, languages: readonly L[]): L | null {
  if (!acceptLanguage) return null;
  for (const tag of ranges(acceptLanguage)) {
    const found = languages.find((language) => tag === language || tag.startsWith(`${language}-`));
    if (found) return found;
  }
  return null;
}

/**
 * Spanish unless the browser's Accept-Language prefers English or
 * Portuguese: the first language range that is one of the three, by
 * quality, decides; no header, `*` or anything else is Spanish.
 */
export function pageLanguage(acceptLanguage: string | undefined): PageLanguage {
  return firstOf(acceptLanguage, ['en', 'es', 'pt'] as const) ?? 'es';
}

/** A payer's page: the first of Spanish, English or Portuguese the browser asks for, by quality; otherwise Spanish. */
export function payerLanguage(acceptLanguage: string | undefined): PayerLanguage {
  return firstOf(acceptLanguage, ['en', 'es', 'pt'] as const) ?? 'es';
}
