import { can, isRole, Permission, ROLES } from './roles';

describe('dashboard roles', () => {
  const all: Permission[] = [
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
  ];

  it('gives a viewer reading only, an operator refunds, payouts, dispute answers, subscriptions, links and payers, and an admin everything', () => {
    expect(all.filter((p) => can('viewer', p))).toEqual(['read']);
    expect(all.filter((p) => can('operator', p))).toEqual([
      'read',
      'refund',
      'request-payout',
      'answer-disputes',
      'manage-subscriptions',
      'manage-links',
      'manage-payers',
    ]);
    expect(all.filter((p) => can('admin', p))).toEqual(all);
  });

  it('includes in each role everything of the one before', () => {
    for (let i = 1; i < ROLES.length; i++) for (const p of all) if (can(ROLES[i - 1], p)) expect(can(ROLES[i], p)).toBe(true);
  });

  it('knows its roles and nothing else', () => {
    expect(ROLES.every(isRole)).toBe(true);
    for (const value of ['Admin', 'root', '', null, 1, ['admin']]) expect(isRole(value)).toBe(false);
  });
});
