import { PERMISSION_ROLES, PERMISSIONS, ROLES, type Permission, type Role } from '@wearable/domain';
import { buildUserInfo } from '@wearable/domain/testing';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import '../testing/render';
import { DemoUserProvider } from './current-user';
import { session } from './session';
import { decideCan, useCan } from './use-can';

afterEach(() => {
  localStorage.clear();
  session.end();
});

const userOf = (role: Role) =>
  buildUserInfo({
    role,
    uid: `uid-${role}`,
    linkedUids: role === 'PERSONAL' || role === 'PERSONAL_SELF' ? ['wearer-1'] : [],
    mediromOrganizationId:
      role === 'ALL_OWNER' || role === 'ALL_GENERAL' || role === 'PERSONAL' ? null : 'org-1',
  });

describe('decideCan: the domain table, as the web sees the signed-in user', () => {
  it.each(ROLES)('%s holds exactly the permissions of its row', (role) => {
    const held = PERMISSIONS.filter((permission) => decideCan(userOf(role), false, permission));
    const expected = PERMISSIONS.filter((p) =>
      (PERMISSION_ROLES[p] as readonly Role[]).includes(role),
    );
    expect(held).toEqual(expected);
  });

  it('confirming an alert: staff of the organisation and platform staff, not personal users', () => {
    const resource = { organizationId: 'org-1', groupIds: ['group-9'], wearerId: 'wearer-1' };
    const confirmers = ROLES.filter((role) =>
      decideCan(userOf(role), false, 'alert:confirm', resource),
    );
    // The group manager's groups are the server's to check: it sent only what they manage.
    expect(confirmers).toEqual([
      'ALL_OWNER',
      'ALL_GENERAL',
      'ORGANIZATION_OWNER',
      'ORGANIZATION_GENERAL',
      'ORGANIZATION_GROUP',
    ]);
  });

  it("another organisation's wearer is out of an organisation role's reach", () => {
    const foreign = { organizationId: 'org-2', wearerId: 'wearer-9' };
    expect(decideCan(userOf('ORGANIZATION_OWNER'), false, 'alert:confirm', foreign)).toBe(false);
    expect(decideCan(userOf('ALL_GENERAL'), false, 'alert:confirm', foreign)).toBe(true);
    expect(decideCan(userOf('PERSONAL'), false, 'alertSettings:update', foreign)).toBe(false);
    expect(
      decideCan(userOf('PERSONAL'), false, 'alertSettings:update', {
        organizationId: 'org-1',
        wearerId: 'wearer-1',
      }),
    ).toBe(true);
  });

  it('the demo reads but changes nothing', () => {
    const allowed = PERMISSIONS.filter((permission) =>
      decideCan(userOf('ORGANIZATION_OWNER'), true, permission),
    );
    const reads: Permission[] = PERMISSIONS.filter((p) => p.endsWith(':read'));
    expect(allowed).toEqual(
      reads.filter((p) => (PERMISSION_ROLES[p] as readonly Role[]).includes('ORGANIZATION_OWNER')),
    );
    expect(allowed).not.toContain('alert:confirm');
  });

  it('nobody signed in may do nothing', () => {
    expect(PERMISSIONS.filter((permission) => decideCan(null, false, permission))).toEqual([]);
  });
});

function ConfirmButton() {
  return useCan('alert:confirm') ? <button type="button">confirm</button> : <p>read only</p>;
}

describe('useCan', () => {
  it('reads the signed-in user', () => {
    localStorage.setItem('accessToken', 'a');
    localStorage.setItem('refreshToken', 'r');
    localStorage.setItem('userInfo', JSON.stringify(userOf('ORGANIZATION_GENERAL')));
    session.reload();
    render(
      <MemoryRouter initialEntries={['/alert-histories']}>
        <ConfirmButton />
      </MemoryRouter>,
    );
    expect(screen.getByRole('button', { name: 'confirm' })).toBeTruthy();
  });

  it('hides the action from a personal user, and inside /demo from the demo owner', () => {
    localStorage.setItem('accessToken', 'a');
    localStorage.setItem('refreshToken', 'r');
    localStorage.setItem('userInfo', JSON.stringify(userOf('PERSONAL')));
    session.reload();
    render(
      <>
        <MemoryRouter initialEntries={['/user/record']}>
          <ConfirmButton />
        </MemoryRouter>
        <MemoryRouter initialEntries={['/demo/alert-histories']}>
          <DemoUserProvider value={userOf('ORGANIZATION_OWNER')}>
            <ConfirmButton />
          </DemoUserProvider>
        </MemoryRouter>
      </>,
    );
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.getAllByText('read only')).toHaveLength(2);
  });
});
