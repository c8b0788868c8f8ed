import * as crypto from 'node:crypto';
import { DeclineTable } from '../declines';

/**
 * Off-session outcomes in the sandbox are decided by amount (contracts §10 and §31):
 * minor units ending in 13 are declined for insufficient funds (a soft decline),
 * ending in 15 declined as a card reported stolen (a hard one), ending in 14 stay
 * pending until the sandbox settles them, anything else is approved.
 */
export function offSessionOutcome(amountMinor: number): 'APPROVED' | 'PENDING' | 'REJECTED' {
  const ending = amountMinor % 100;
  if (ending === 13 || ending === 15) return 'REJECTED';
  if (ending === 14) return 'PENDING';
  return 'APPROVED';
}

/** The sandbox's refusals of off-session charges, as its error says them (contract §31), each soft or hard. */
export const SANDBOX_DECLINES: DeclineTable = {
  'insufficient funds': { kind: 'SOFT', meaning: 'minor units ending in 13' },
  'card reported stolen': { kind: 'HARD', meaning: 'minor units ending in 15' },
};

/** Why the sandbox declined an off-session charge of this amount. */
export function offSessionDecline(amountMinor: number): keyof typeof SANDBOX_DECLINES {
  return amountMinor % 100 === 15 ? 'card reported stolen' : 'insufficient funds';
}

/**
 * How the sandbox decides a dispute (contract §21), a few seconds after its
 * evidence is submitted: WON when the name of an evidence file contains
 * `win` (any case), LOST otherwise.
 */
export function sandboxDisputeOutcome(fileNames: readonly string[]): 'WON' | 'LOST' {
  return fileNames.some((name) => /win/i.test(name)) ? 'WON' : 'LOST';
}

const CARD_METHODS = new Set(['VISA', 'MASTER_CARD', 'AMERICAN_EXPRESS', 'OCA', 'APPLE_PAY', 'GOOGLE_WALLET']);

/** The sandbox's token for a card its setup fields saved (contract §31): it carries the card's last four, as its vault would. */
export function sandboxSavedCardToken(last4: string): string {
  return `sbx_card_${crypto.randomBytes(12).toString('hex')}_${last4}`;
}

/** What a card gateway hands back: a masked number, never a full one (a saved card's own last four). */
export function sandboxCardDetails(paymentMethod: string, reference: string): { maskedPan?: string; cardType?: string } {
  if (!CARD_METHODS.has(paymentMethod)) return {};
  const saved = /^sbx_card_[0-9a-f]{24}_(\d{4})$/.exec(reference)?.[1];
  const last4 =
    saved ?? String(parseInt(crypto.createHash('sha256').update(reference).digest('hex').slice(0, 8), 16) % 10000).padStart(4, '0');
  return { maskedPan: `************${last4}`, cardType: paymentMethod };
}

/** The key the sandbox signs its callbacks with, derived from the master key. */
export function sandboxCallbackKey(masterKey: Buffer): Buffer {
  return Buffer.from(crypto.hkdfSync('sha256', masterKey, Buffer.alloc(0), 'pcs sandbox gateway callbacks', 32));
}

export function signCallback(key: Buffer, body: string | Buffer): string {
  return crypto.createHmac('sha256', key).update(body).digest('hex');
}
