import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { UserInfo } from '@wearable/domain';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import ja from '../../../public/locales/ja/common.json';
import en from '../../../public/locales/en/common.json';
import jaWearer from '../../../public/locales/ja/wearer.json';
import enWearer from '../../../public/locales/en/wearer.json';
import { session } from '../../lib/session';
import { json, renderWithApp, RoutesUnderTest, stubServer } from '../../testing/render';
import { routes } from '../routes';

vi.setConfig({ testTimeout: 60_000 });
const SLOW = { timeout: 20_000 };

const user = (role: UserInfo['role']): UserInfo => ({
  name: 'わたし',
  devices: [],
  gatewayId: null,
  linkedUids: [],
  mail: 'me@example.com',
  mailVerified: true,
  role,
  uid: `uid-${role}`,
  agreedTermsOfUse: true,
  mediromOrganizationId: 'org-1',
});

const realFetch = globalThis.fetch;
beforeEach(() => localStorage.clear());
afterEach(() => {
  globalThis.fetch = realFetch;
  session.end();
  window.history.replaceState(null, '', '/');
});

async function open(role: UserInfo['role'], lng: 'ja' | 'en' = 'ja') {
  localStorage.setItem('accessToken', 'access-0');
  localStorage.setItem('refreshToken', 'refresh-0');
  localStorage.setItem('userInfo', JSON.stringify(user(role)));
  session.reload();
  window.history.replaceState(null, '', '/devices/import');
  return renderWithApp(<RoutesUnderTest routes={routes} />, {
    path: '/devices/import',
    lng,
    namespaces: [{ ns: 'wearer', ja: jaWearer, en: enWearer }],
  });
}

const csv = (text: string, name = 'bracelets.csv') =>
  new File([new TextEncoder().encode(text)], name, { type: 'text/csv' });

describe('/devices/import', () => {
  it('reads the CSV (headers in Japanese too), previews, then imports all rows', async () => {
    const calls = stubServer((url, init) => {
      if (url === '/v2/user') return json(200, user('ORGANIZATION_OWNER'));
      if (url === '/v2/client/org-1/bracelets/import' && init?.method === 'POST') {
        const body = JSON.parse(init.body as string) as { dryRun: boolean; rows: unknown[] };
        return json(200, {
          dryRun: body.dryRun,
          rows: body.rows.map((_, i) => ({ row: i + 1, action: 'create' })),
          created: body.rows.length,
          updated: 0,
          unchanged: 0,
        });
      }
      return json(404, {});
    });
    await open('ORGANIZATION_OWNER');
    const panel = await screen.findByTestId('bracelets-import', undefined, SLOW);
    fireEvent.change(within(panel).getByTestId('bracelets-file'), {
      target: {
        files: [csv('\uFEFFシリアル番号,型番,装着者\r\nBR-1,MB1,"山田, 太郎"\r\nBR-2,MB1,\r\n')],
      },
    });
    const preview = await within(panel).findByTestId('bracelets-preview', undefined, SLOW);
    expect(within(preview).getAllByTestId('bracelets-preview-row')).toHaveLength(2);
    expect(within(preview).getByText('山田, 太郎')).toBeTruthy();
    expect(calls.find((c) => c.url.endsWith('/bracelets/import'))?.body).toEqual({
      dryRun: true,
      rows: [
        { serialNumber: 'BR-1', model: 'MB1', wearer: '山田, 太郎' },
        { serialNumber: 'BR-2', model: 'MB1', wearer: '' },
      ],
    });
    fireEvent.click(within(preview).getByTestId('bracelets-commit'));
    expect(
      (await within(panel).findByTestId('bracelets-done', undefined, SLOW)).textContent,
    ).toContain('新規 2件');
    expect(calls.filter((c) => c.url.endsWith('/bracelets/import')).map((c) => c.body)).toEqual([
      expect.objectContaining({ dryRun: true }),
      expect.objectContaining({ dryRun: false }),
    ]);
  });

  it.each(['ja', 'en'] as const)(
    'shows every refused cell by row and column in %s, and offers no import',
    async (lng) => {
      stubServer((url, init) => {
        if (url === '/v2/user') return json(200, user('ORGANIZATION_OWNER'));
        if (url === '/v2/client/org-1/wearers/import' && init?.method === 'POST')
          return json(400, {
            statusCode: 400,
            error: 'Bad Request',
            code: 'IMPORT_ROWS_INVALID',
            message: '2 problem(s), nothing imported',
            issues: [
              {
                path: 'rows.2.birthYear',
                message: 'must be a year (YYYY) or a date (YYYY-MM-DD) between 1900 and this year',
              },
              { path: 'rows.2.group', message: 'no group of this organisation has this name' },
            ],
          });
        return json(404, {});
      });
      await open('ORGANIZATION_OWNER', lng);
      const panel = await screen.findByTestId('wearers-import', undefined, SLOW);
      fireEvent.change(within(panel).getByTestId('wearers-file'), {
        target: {
          files: [
            csv(
              'name,nameReading,group,birthYear\n山田 太郎,やまだ たろう,第一,1980\n佐藤,さとう,ない,18\n',
              'w.csv',
            ),
          ],
        },
      });
      const problems = await within(panel).findAllByTestId('wearers-problem', undefined, SLOW);
      const dict = lng === 'ja' ? ja : en;
      expect(
        problems.map((p) => [...p.querySelectorAll('[data-part]')].map((part) => part.textContent)),
      ).toEqual([
        [
          dict.csvImport.rowNumber.replace('{{row}}', '2'),
          dict.people.import.columns.birthYear,
          dict.csvImport.problems.birthYear,
        ],
        [
          dict.csvImport.rowNumber.replace('{{row}}', '2'),
          dict.people.import.columns.group,
          dict.csvImport.problems.groupUnknown,
        ],
      ]);
      expect(within(panel).queryByTestId('wearers-commit')).toBeNull();
    },
  );

  it('a general member imports wearers but is not offered bracelets (owners register them)', async () => {
    stubServer((url) =>
      url === '/v2/user' ? json(200, user('ORGANIZATION_GENERAL')) : json(404, {}),
    );
    await open('ORGANIZATION_GENERAL');
    expect(await screen.findByTestId('wearers-import', undefined, SLOW)).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('bracelets-import')).toBeNull());
  });
});
