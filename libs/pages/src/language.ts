/** The languages of the pages a payer sees (contract §12, §13). */
export type PageLanguage = 'es' | 'en';

/**
 * Spanish unless the browser's Accept-Language prefers English: the first
 * language range that is Spanish or English, by quality, decides; no header,
 * `*` or anything else is Spanish.
 */
export function pageLanguage(acceptLanguage: string | undefined): PageLanguage {
  if (!acceptLanguage) return 'es';
  const ranges = acceptLanguage
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find(Boolean);
      return { tag: tag.trim(), q: q ? Number(q[1]) : 1, index };
    })
    .filter((r) => r.q > 0 && Number.isFinite(r.q))
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const range of ranges) {
    if (range.tag === 'en' || range.tag.startsWith('en-')) return 'en';
    if (range.tag === 'es' || range.tag.startsWith('es-')) return 'es';
  }
  return 'es';
}
