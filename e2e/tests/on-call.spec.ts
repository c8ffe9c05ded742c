import { auditView, LANGUAGES, setWidth, settle, useLanguage, WIDTHS } from '../support/a11y.js';
import { roleCase } from '../support/roles.js';
import { signIn, waitForPage } from '../support/session.js';
import { auth, newGroup } from '../support/staff.js';
import { expect, test } from '../support/test.js';

/*
 * Issue 38 item 3 in the console: an owner makes a group's on-call rota (daily, two people in turn),
 * sees who is on call now and next, adds cover for tomorrow and takes it away, and makes 「当番の人」
 * a notice recipient; in ja and en, with axe and the 360 px check. The group is the story's own, and
 * its handover time is hours away, so no handover summary leaves during the story.
 */

test.describe.configure({ timeout: 120_000 });

const WORDS = {
  ja: { made: '当番表を保存しました', cover: '代理を追加しました', onCall: '当番の人' },
  en: { made: 'Rota saved', cover: 'Cover added', onCall: 'Whoever is on call' },
} as const;

/** HH:MM in Tokyo, `hours` from now. */
const tokyoTime = (hours: number) =>
  new Date(Date.now() + hours * 3_600_000).toLocaleTimeString('en-GB', {
    timeZone: 'Asia/Tokyo',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
/** YYYY-MM-DDTHH:MM in Tokyo, `hours` from now (a datetime-local value read in the organisation's zone). */
const tokyoLocal = (hours: number) =>
  new Date(Date.now() + hours * 3_600_000)
    .toLocaleString('sv-SE', { timeZone: 'Asia/Tokyo' })
    .slice(0, 16)
    .replace(' ', 'T');

for (const lng of LANGUAGES) {
  test(`an owner makes a group's on-call rota, adds and removes cover, and names whoever is on call as a recipient (${lng})`, async ({
    page,
    request,
  }) => {
    await useLanguage(page, lng);
    const { accessToken } = await signIn(page, request, roleCase('ORGANIZATION_OWNER').email);
    const groupId = await newGroup(request, accessToken, `E2E当番 ${lng} ${Date.now()}`);
    const failures: string[] = [];
    try {
      await page.goto(`/groups/${groupId}/alert-notice-settings`);
      await waitForPage(page);
      await settle(page);
      const panel = page.getByTestId('on-call');
      await expect(panel.getByTestId('on-call-rota-summary')).toBeVisible();

      await panel.getByTestId('on-call-rota-edit').click();
      const form = panel.getByTestId('on-call-rota-form');
      await form.getByTestId('on-call-kind-daily').check();
      await form.getByTestId('on-call-handover').fill(tokyoTime(6));
      // Saving with nobody on the rota is refused on the form.
      await form.getByTestId('on-call-rota-save').click();
      await expect(form.getByTestId('on-call-rota-problem')).toBeVisible();
      const add = form.getByTestId('on-call-members-add');
      const first = (await add.locator('option').nth(1).textContent()) ?? '';
      await add.selectOption({ index: 1 });
      const second = (await add.locator('option').nth(1).textContent()) ?? '';
      await add.selectOption({ index: 1 });
      await expect(form.getByTestId('on-call-person')).toHaveCount(2);
      failures.push(...(await auditView(page, `${lng} rota form 1280`)));
      await form.getByTestId('on-call-rota-save').click();
      await expect(page.getByText(WORDS[lng].made).first()).toBeVisible();

      // Now and next are the two people, as the server computes them.
      const view = (await (
        await request.get(`/v2/group/${groupId}/onCall`, { headers: auth(accessToken) })
      ).json()) as { now: { people: { name: string }[] }; next: { people: { name: string }[] } };
      const nowName = view.now.people[0]?.name ?? '';
      expect([first, second]).toContain(nowName);
      await expect(panel.getByTestId('on-call-now')).toHaveText(nowName);
      await expect(panel.getByTestId('on-call-next')).toHaveText(view.next.people[0]?.name ?? '');
      expect(view.next.people[0]?.name).not.toBe(nowName);

      // Cover tomorrow for two hours, by the second person.
      const cover = panel.getByTestId('on-call-override-form');
      await cover.getByTestId('on-call-override-person').selectOption({ label: second });
      await cover.getByTestId('on-call-override-from').fill(tokyoLocal(24));
      await cover.getByTestId('on-call-override-until').fill(tokyoLocal(26));
      await cover.getByTestId('on-call-override-note').fill('E2E');
      await cover.getByTestId('on-call-override-add').click();
      await expect(page.getByText(WORDS[lng].cover).first()).toBeVisible();
      const row = panel.getByTestId('on-call-override');
      await expect(row).toHaveCount(1);
      await expect(row).toContainText(second);

      for (const width of WIDTHS) {
        await setWidth(page, width);
        failures.push(...(await auditView(page, `${lng} on-call ${width}`)));
      }
      await setWidth(page, 1280);

      await row.getByRole('button').click();
      await expect(row).toHaveCount(0);

      // 「当番の人」 as a recipient, saved and read back.
      await page.getByTestId('recipient-add').click();
      const editor = page.getByTestId('recipient-editor');
      await editor.getByTestId('recipient-kind-onCall').check();
      await expect(editor.getByTestId('recipient-on-call-help')).toBeVisible();
      await editor.getByTestId('recipient-done').click();
      await page.getByTestId('notice-save').click();
      await expect(page.getByTestId('notice-dirty')).toBeHidden();
      await page.reload();
      await waitForPage(page);
      await expect(page.getByTestId('recipient-who')).toHaveText(WORDS[lng].onCall);
      const stored = (await (
        await request.get(`/v2/group/${groupId}/alertNoticeSettings`, {
          headers: auth(accessToken),
        })
      ).json()) as { recipients: { onCall?: boolean }[] };
      expect(stored.recipients).toMatchObject([{ onCall: true }]);
      expect(failures).toEqual([]);
    } finally {
      await request.delete(`/v2/group/${groupId}`, { headers: auth(accessToken) });
    }
  });
}
