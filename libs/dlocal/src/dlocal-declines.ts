import { DeclineTable } from '@pcs/gateways';

/**
 * dLocal's status codes of a REJECTED payment, as its "payment status codes" reference lists them, each SOFT or HARD
 * (libs/gateways/src/declines.ts; docs/processors.md has the table).
 */
export const DLOCAL_DECLINES: DeclineTable = {
  '300': { kind: 'SOFT', meaning: 'the payment was rejected' },
  '301': { kind: 'SOFT', meaning: 'rejected by bank' },
  '302': { kind: 'SOFT', meaning: 'insufficient amount' },
  '303': { kind: 'HARD', meaning: 'card blacklisted' },
  '304': { kind: 'HARD', meaning: 'score validation' },
  '305': { kind: 'SOFT', meaning: 'max attempts reached' },
  '306': { kind: 'SOFT', meaning: 'call bank for authorize' },
  '307': { kind: 'SOFT', meaning: 'duplicated payment' },
  '308': { kind: 'HARD', meaning: 'credit card disabled' },
  '309': { kind: 'HARD', meaning: 'card expired' },
  '310': { kind: 'HARD', meaning: 'card reported lost' },
  '311': { kind: 'HARD', meaning: 'card requested by the bank' },
  '312': { kind: 'HARD', meaning: 'card restricted by the bank' },
  '313': { kind: 'HARD', meaning: 'card reported stolen' },
  '314': { kind: 'HARD', meaning: 'invalid card number' },
  '315': { kind: 'HARD', meaning: 'invalid security code' },
  '316': { kind: 'HARD', meaning: 'unsupported operation' },
  '317': { kind: 'HARD', meaning: 'rejected due to high risk' },
  '318': { kind: 'HARD', meaning: 'invalid transaction' },
  '319': { kind: 'SOFT', meaning: 'amount exceeded' },
  '320': { kind: 'HARD', meaning: '3-D Secure is required' },
  '321': { kind: 'SOFT', meaning: 'error in acquirer' },
  '322': { kind: 'HARD', meaning: 'wallet disabled' },
  '323': { kind: 'HARD', meaning: 'invalid user account' },
  '324': { kind: 'HARD', meaning: 'invalid PIN' },
  '325': { kind: 'SOFT', meaning: 'transaction frequency limit exceeded' },
};
