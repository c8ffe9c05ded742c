import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import en from '../../../../public/locales/en/wearer.json';
import ja from '../../../../public/locales/ja/wearer.json';
import { json, renderWithApp, stubServer } from '../../../testing/render';
import { signInAsOwner, WEARER } from '../wearer-profile-test-utils';
import { WatchersPanel } from './watchers-panel';

beforeEach(signInAsOwner);

describe('inviting a family member', () => {
  it('an address that is not one: nothing is sent and the keyboard lands on the address, marked invalid', async () => {
    const calls = stubServer(() => json(404, {}));
    await renderWithApp(<WatchersPanel person={WEARER} />, {
      namespaces: [{ ns: 'wearer', ja, en }],
    });
    const email = screen.getByTestId('invite-email');
    fireEvent.change(email, { target: { value: 'not-an-address' } });
    // Pressed as a user does: the button takes the focus first.
    screen.getByTestId('send-invite').focus();
    fireEvent.click(screen.getByTestId('send-invite'));
    // Marked by the render the submit causes; focus follows that render.
    await waitFor(() => expect(document.activeElement).toBe(email));
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);
  });
});
