import { axeFindings } from '../support/a11y.js';
import { expect, test } from '../support/test.js';

/*
 * The a11y checks of every other story lean on axeFindings: it must still see a failure, on a page and within a
 * part of it, after a width change (axe is put into a page once per document).
 */
test('axeFindings reports critical and serious findings, within a part too, and again after a width change', async ({
  page,
}) => {
  const doc = (body: string) =>
    `<!doctype html><html lang="en"><head><title>t</title></head><body><main><h1>t</h1>${body}</main></body></html>`;
  await page.setContent(
    doc(`<div id="ok"><p>fine</p></div><div id="bad"><img src="data:,"><button></button></div>`),
  );
  const all = await axeFindings(page);
  expect(all.map((f) => f.split(' x')[0]).sort()).toEqual([
    'button-name [critical]',
    'image-alt [critical]',
  ]);
  expect(await axeFindings(page, '#ok')).toEqual([]);
  expect((await axeFindings(page, '#bad')).length).toBe(2);
  await page.setViewportSize({ width: 360, height: 800 });
  expect((await axeFindings(page)).length).toBe(all.length);
  // A new document gets axe again.
  await page.setContent(doc('<img src="data:,">'));
  expect((await axeFindings(page)).map((f) => f.split(' ')[0])).toEqual(['image-alt']);
});
