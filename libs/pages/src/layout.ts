import { escapeHtml } from './format';
import { PayerLanguage } from './language';

/**
 * The one look of every page a payer sees (the sandbox gateway now; the
 * link pay page and the B2B checkout next): a single card that fits a
 * 390-pixel phone and centres on a desktop. Server-rendered, no scripts, no
 * external assets (a strict CSP allows nothing else).
 */
const STYLES = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f3f4f6;color:#111827;line-height:1.45}
.page{min-height:100vh;display:flex;justify-content:center;align-items:flex-start;padding:clamp(.75rem,4vw,3rem) clamp(.75rem,4vw,1.5rem)}
main{background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.1);padding:clamp(1.25rem,5vw,2rem);width:100%;max-width:440px;overflow-wrap:anywhere}
h1{font-size:1.15rem;margin:.25rem 0}
.badge{display:inline-block;font-size:.75rem;background:#fef3c7;color:#92400e;border-radius:999px;padding:.15rem .6rem}
.amount{font-size:clamp(1.6rem,8vw,2rem);font-weight:600;margin:1rem 0;font-variant-numeric:tabular-nums}
dl{display:grid;grid-template-columns:auto minmax(0,1fr);gap:.4rem 1rem;margin:0 0 1.25rem}
dt{color:#6b7280}dd{margin:0;min-width:0}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.85rem;word-break:break-all}
.status{color:#374151}
.actions{display:flex;gap:.5rem;flex-wrap:wrap;margin:0}
.actions+.actions{margin-top:.5rem}
.actions button,.button{flex:1 1 8rem;border:0;border-radius:8px;padding:.8rem 1rem;font-size:1rem;cursor:pointer;color:#fff;background:#2563eb;text-align:center;text-decoration:none}
.actions .approve{background:#059669}.actions .reject{background:#dc2626}.actions .pending{background:#6b7280}
.back{display:inline-block;margin-top:1.25rem;color:#2563eb}
.fine{color:#6b7280;font-size:.85rem}
.field{margin:0 0 .9rem;display:flex;flex-direction:column;gap:.3rem}
.field label{font-weight:600;font-size:.9rem}
.field input,.field select{font:inherit;padding:.7rem .8rem;border:1px solid #d1d5db;border-radius:8px;width:100%;min-width:0;background:#fff}
.field input[aria-invalid=true]{border-color:#dc2626}
.field-error{color:#b91c1c;font-size:.85rem}
.dispute{margin-top:1.5rem;border-top:1px solid #e5e7eb;padding-top:1rem;display:flex;flex-direction:column;gap:.5rem}
.dispute h2{font-size:1rem;margin:0}.dispute .hint{color:#6b7280;font-size:.85rem;margin:0}
.dispute select{font:inherit;padding:.6rem;border:1px solid #d1d5db;border-radius:8px;width:100%;min-width:0}
.dispute button{border:0;border-radius:8px;padding:.8rem 1rem;font-size:1rem;cursor:pointer;color:#fff;background:#b45309}
.notice{background:#ecfdf5;color:#065f46;border-radius:8px;padding:.6rem .8rem}
`;

export interface PageContent {
  readonly language: PayerLanguage;
  readonly title: string;
  /** Inner HTML of the card, already escaped where it holds data. */
  readonly body: string;
}

export function renderPage({ language, title, body }: PageContent): string {
  return `<!doctype html>
<html lang="${language === 'pt' ? 'pt-BR' : language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${STYLES}</style>
</head>
<body><div class="page"><main>
${body}
</main></div></body>
</html>`;
}

/** Headers every payer page is sent with: no caching, no framing, nothing loaded from elsewhere. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' https: http:; frame-ancestors 'none'; base-uri 'none'",
  'X-Content-Type-Options': 'nosniff',
};
