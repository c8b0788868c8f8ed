import { Browser, Page } from 'playwright-core';
import { Testbed } from './testbed';

/** What the saved-card specs of each processor share: the payer's phone, what reached our server, the invoices, the mail's link. */

/** A new page on a 390-pixel phone in `locale`. */
export async function phone(browser: Browser, locale: string): Promise<Page> {
  return (await browser.newContext({ locale, viewport: { width: 390, height: 844 } })).newPage();
}

/** The bodies the page posts to our server from now on (what a processor's card fields let reach us). */
export function postsTo(page: Page, origin: string): string[] {
  const posted: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().startsWith(origin)) posted.push(request.postData() ?? '');
  });
  return posted;
}

export interface InvoiceRow {
  readonly period_number: number;
  readonly status: string;
  readonly attempt_count: number;
  readonly payment_instrument_id: string;
  readonly decline_kind: string | null;
}

/** A subscription's invoices, in period order. */
export function invoicesOf(bed: Testbed, subscriptionId: string): Promise<InvoiceRow[]> {
  return bed.query<InvoiceRow>(
    `SELECT period_number, status, attempt_count, payment_instrument_id, decline_kind FROM invoice WHERE subscription_id = $1 ORDER BY period_number`,
    [subscriptionId],
  );
}

/** The card setup page a declined charge's mail (of the subscription described so) links to, as the payer follows it. */
export async function setupLinkOfDeclineMail(bed: Testbed, description: string): Promise<string> {
  const [mail] = await bed.query<{ text_body: string }>(
    `SELECT text_body FROM mail_message WHERE text_body LIKE $1 AND text_body LIKE '%/setup/%' ORDER BY created_at DESC LIMIT 1`,
    [`%${description}%`],
  );
  return new RegExp(`${bed.url}/setup/[0-9a-f-]{36}`).exec(mail.text_body)![0];
}
