import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import alertsEn from '../../../../public/locales/en/alerts.json';
import alertsJa from '../../../../public/locales/ja/alerts.json';
import staffEn from '../../../../public/locales/en/staff-settings.json';
import staffJa from '../../../../public/locales/ja/staff-settings.json';
import { renderWithApp } from '../../../testing/render';
import { newDraft } from '../recipients';
import { RecipientEditor } from './recipient-editor';

const open = (onDone = vi.fn()) =>
  renderWithApp(
    <RecipientEditor
      draft={newDraft(1)}
      staff={[]}
      typeLabel={(type) => type}
      onDone={onDone}
      onCancel={vi.fn()}
    />,
    {
      namespaces: [
        { ns: 'staff-settings', ja: staffJa, en: staffEn },
        { ns: 'alerts', ja: alertsJa, en: alertsEn },
      ],
    },
  );

describe('the recipient editor', () => {
  it('a number left out: nothing is handed back and the keyboard lands on the number, marked invalid', async () => {
    const onDone = vi.fn();
    await open(onDone);
    const phone = screen.getByTestId('recipient-phone');
    expect(phone.getAttribute('aria-invalid')).toBe('false');
    // Pressed as a user does: the button takes the focus first.
    screen.getByTestId('recipient-done').focus();
    fireEvent.click(screen.getByTestId('recipient-done'));
    // Marked by the render the submit causes; focus follows that render.
    await waitFor(() => expect(document.activeElement).toBe(phone));
    expect(phone.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByTestId('recipient-error').textContent).toBe(
      staffJa.notice.errors.phoneRequired,
    );
    expect(onDone).not.toHaveBeenCalled();
  });

  it("each alert type says when it fires, as its box's description; the name stays the type", async () => {
    await open();
    for (const type of ['SOS_CALL', 'AWAKENING_ALERT', 'DISCONNECTION'] as const) {
      const box = screen.getByRole('checkbox', { name: type });
      const described = document.getElementById(box.getAttribute('aria-describedby') ?? '');
      expect(described?.textContent).toBe(alertsJa.explain[type]);
    }
  });
});
