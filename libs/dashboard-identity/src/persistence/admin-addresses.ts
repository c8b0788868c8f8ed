import { Transaction } from '@pcs/kernel';
import { managerOf } from '@pcs/database';

/**
 * The addresses of a business's enabled admins who see a merchant (its
 * admins of the whole business, and those of that merchant): whom a change
 * to where the merchant's money goes is told to (contract §24). Read in the
 * caller's transaction (the mail is queued in it).
 */
export async function adminAddressesOf(tx: Transaction, businessId: string, merchantId: string): Promise<string[]> {
  const rows = await managerOf(tx).query<{ email: string }[]>(
    `SELECT email FROM dashboard_user
      WHERE business_id = $1 AND role = 'admin' AND disabled_at IS NULL AND (merchant_id IS NULL OR merchant_id = $2)
      ORDER BY lower(email) LIMIT 50`,
    [businessId, merchantId],
  );
  return rows.map((row) => row.email);
}
