import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import en from '../../../../public/locales/en/wearer.json';
import ja from '../../../../public/locales/ja/wearer.json';
import { json, renderWithApp, stubServer } from '../../../testing/render';
import { signInAsOwner, WEARER } from '../wearer-profile-test-utils';
import { ProfilePanel } from './profile-panel';

beforeEach(signInAsOwner);

describe('the wearer profile form', () => {
  it('a name emptied: nothing is sent and the keyboard lands on the name, marked invalid', async () => {
    const calls = stubServer(() => json(404, {}));
    await renderWithApp(<ProfilePanel person={WEARER} />, {
      namespaces: [{ ns: 'wearer', ja, en }],
    });
    const name = screen.getByTestId('profile-name');
    fireEvent.change(name, { target: { value: ' ' } });
    // Pressed as a user does: the button takes the focus first.
    screen.getByTestId('save-profile').focus();
    fireEvent.click(screen.getByTestId('save-profile'));
    // Marked by the render the submit causes; focus follows that render.
    await waitFor(() => expect(document.activeElement).toBe(name));
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByTestId('profile-birth-date').getAttribute('aria-invalid')).toBe('false');
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);
  });

  it('shows the reading of the name and sends only what changed', async () => {
    const calls = stubServer((url, init) =>
      url === '/v3/user/update' && init?.method === 'PATCH'
        ? json(200, { ...WEARER, nameReading: 'さとう けんた' })
        : json(404, {}),
    );
    await renderWithApp(<ProfilePanel person={{ ...WEARER, nameReading: 'さとう' }} />, {
      namespaces: [{ ns: 'wearer', ja, en }],
    });
    const reading = screen.getByTestId('profile-name-reading');
    expect((reading as HTMLInputElement).value).toBe('さとう');
    expect(screen.getByLabelText(ja.profile.nameReading)).toBe(reading);
    fireEvent.change(reading, { target: { value: ' さとう けんた ' } });
    fireEvent.click(screen.getByTestId('save-profile'));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({
        uid: WEARER.uid,
        nameReading: 'さとう けんた',
      }),
    );
  });
});
