import { Currency, wireAmount } from '@pcs/kernel';
import type { SandboxPageView } from '@pcs/gateways';

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const STATUS_TEXT: Record<SandboxPageView['status'], string> = {
  OPEN: 'Waiting for your decision.',
  PENDING: 'Left pending: the payment is on its way. You can still approve or reject it.',
  APPROVED: 'Payment approved. You can close this window.',
  REJECTED: 'Payment rejected. You can close this window.',
  CANCELLED: 'This payment was replaced or cancelled.',
  EXPIRED: 'This payment page has expired.',
};

/** The sandbox checkout page: merchant, amount, method, and the three decisions. */
export function renderSandboxPage(view: SandboxPageView): string {
  const amount = wireAmount(view.amount, view.currency as Currency).toLocaleString('en-US', {
    minimumFractionDigits: 0,
    maximumFractionDigits: 2,
  });
  const buttons = view.open
    ? `<form method="post" action="/sandbox/gateway/${escape(view.reference)}">
        <button name="outcome" value="approve" class="approve">Approve</button>
        <button name="outcome" value="reject" class="reject">Reject</button>
        ${view.status === 'OPEN' ? '<button name="outcome" value="pending" class="pending">Leave pending</button>' : ''}
      </form>`
    : '';
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Sandbox payment · ${escape(view.merchantName)}</title>
<style>
body{font-family:system-ui,sans-serif;background:#f3f4f6;display:flex;justify-content:center;padding:3rem 1rem;color:#111827}
main{background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.1);padding:2rem;max-width:420px;width:100%}
h1{font-size:1.1rem;margin:0 0 .25rem}.badge{display:inline-block;font-size:.75rem;background:#fef3c7;color:#92400e;border-radius:999px;padding:.1rem .6rem}
.amount{font-size:2rem;font-weight:600;margin:1rem 0}dl{display:grid;grid-template-columns:auto 1fr;gap:.4rem 1rem;margin:0 0 1.5rem}dt{color:#6b7280}
form{display:flex;gap:.5rem;flex-wrap:wrap}button{border:0;border-radius:8px;padding:.7rem 1.1rem;font-size:1rem;cursor:pointer;color:#fff}
.approve{background:#059669}.reject{background:#dc2626}.pending{background:#6b7280}p.status{color:#374151}
</style></head>
<body><main>
<span class="badge">Sandbox gateway — no real money moves</span>
<h1 id="merchant">${escape(view.merchantName)}</h1>
<div class="amount" id="amount">${escape(amount)} ${escape(view.currency)}</div>
<dl><dt>Method</dt><dd id="method">${escape(view.paymentMethod.replace(/_/g, ' '))}</dd><dt>Reference</dt><dd>${escape(view.reference)}</dd></dl>
<p class="status" id="status" data-status="${view.status}">${STATUS_TEXT[view.status]}</p>
${buttons}
</main></body></html>`;
}
