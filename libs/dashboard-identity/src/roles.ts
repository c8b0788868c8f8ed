/** The dashboard's roles (contract §18), each including everything of the one before. */
export const ROLES = ['viewer', 'operator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** What a person may do in the dashboard; the server checks each one (403), the pages only hide what it refuses. */
export type Permission =
  | 'read'
  | 'refund'
  | 'request-payout'
  | 'answer-disputes'
  | 'manage-subscriptions'
  | 'manage-links'
  | 'manage-payers'
  | 'manage-webhooks'
  | 'configure-merchants'
  | 'manage-users'
  | 'read-audit'
  | 'confirm-settlement-accounts';

const GRANTS: Record<Role, readonly Permission[]> = {
  viewer: ['read'],
  operator: ['read', 'refund', 'request-payout', 'answer-disputes', 'manage-subscriptions', 'manage-links', 'manage-payers'],
  admin: [
    'read',
    'refund',
    'request-payout',
    'answer-disputes',
    'manage-subscriptions',
    'manage-links',
    'manage-payers',
    'manage-webhooks',
    'configure-merchants',
    'manage-users',
    'read-audit',
    'confirm-settlement-accounts',
  ],
};

export function can(role: Role, permission: Permission): boolean {
  return GRANTS[role].includes(permission);
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}
