import { ALERT_REPEAT_SUPPRESS_MS, ROLES, type Role } from '@wearable/domain';
import { describe, expect, it } from 'vitest';
import { decideNotification, notificationsAllowed } from './notification-rules';

const T0 = Date.UTC(2026, 10, 21, 9, 0, 0);

describe('decideNotification (spec 9: same count within 5 minutes is not repeated)', () => {
  it('announces the first unconfirmed alerts and remembers count and time', () => {
    expect(decideNotification(3, null, T0)).toEqual({
      notify: true,
      memo: { count: 3, timestamp: T0 },
    });
  });

  it('stays quiet for the same count within 5 minutes and keeps the first time', () => {
    const memo = { count: 3, timestamp: T0 };
    expect(decideNotification(3, memo, T0 + ALERT_REPEAT_SUPPRESS_MS - 1)).toEqual({
      notify: false,
      memo,
    });
  });

  it('announces the same count again once 5 minutes have passed', () => {
    const memo = { count: 3, timestamp: T0 };
    const later = T0 + ALERT_REPEAT_SUPPRESS_MS;
    expect(decideNotification(3, memo, later)).toEqual({
      notify: true,
      memo: { count: 3, timestamp: later },
    });
  });

  it('announces a higher count at once', () => {
    const memo = { count: 3, timestamp: T0 };
    expect(decideNotification(4, memo, T0 + 1000)).toEqual({
      notify: true,
      memo: { count: 4, timestamp: T0 + 1000 },
    });
  });

  it('stays quiet when the count falls (staff confirming: one toast per action), then repeats on time', () => {
    const memo = { count: 3, timestamp: T0 };
    const fell = decideNotification(2, memo, T0 + 1000);
    expect(fell).toEqual({ notify: false, memo: { count: 2, timestamp: T0 } });
    expect(decideNotification(2, fell.memo, T0 + ALERT_REPEAT_SUPPRESS_MS).notify).toBe(true);
  });

  it('never announces zero, and zero resets the memo so the next alert is announced', () => {
    const cleared = decideNotification(0, { count: 3, timestamp: T0 }, T0 + 1000);
    expect(cleared.notify).toBe(false);
    expect(decideNotification(3, cleared.memo, T0 + 2000).notify).toBe(true);
  });
});

describe('notificationsAllowed (spec 1, 6: five staff roles, not on /login or /verify, off in the demo)', () => {
  const STAFF: Role[] = [
    'ORGANIZATION_GENERAL',
    'ORGANIZATION_OWNER',
    'ORGANIZATION_GROUP',
    'ALL_GENERAL',
    'ALL_OWNER',
  ];
  const table = ROLES.flatMap((role) =>
    ['/devices', '/alert-histories', '/login', '/verify', '/demo/devices', '/demo/login'].map(
      (path) => ({
        role,
        path,
        allowed:
          STAFF.includes(role) &&
          !path.startsWith('/demo') &&
          path !== '/login' &&
          path !== '/verify',
      }),
    ),
  );

  it.each(table)('$role on $path: $allowed', ({ role, path, allowed }) => {
    expect(notificationsAllowed(role, path)).toBe(allowed);
  });

  it('is off without a user', () => {
    expect(notificationsAllowed(null, '/devices')).toBe(false);
  });
});
