// The accessibility check itself (fixtures.ts checkA11y): every journey relies on it to fail on a
// violation, so this shows that it does, with the rule named in the message.
import { expect, test } from './fixtures';

test('the accessibility check fails on a page with violations and names the rules', async ({ page, checkA11y }) => {
  await page.setContent(
    '<!doctype html><html lang="en"><head><title>Check</title></head><body><main><h1>Form</h1>' +
      '<input type="text"><p style="color:#bbb;background:#fff">Low contrast</p></main></body></html>',
  );
  const failure = await checkA11y(page).then(() => null, (e: Error) => e.message);
  expect(failure).toContain('axe found accessibility violations');
  expect(failure).toContain('color-contrast');
  expect(failure).toMatch(/\blabel\b/);
});

test('the accessibility check passes a page without violations', async ({ page, checkA11y }) => {
  await page.setContent(
    '<!doctype html><html lang="en"><head><title>Check</title></head><body><main><h1>Form</h1>' +
      '<label>Name <input type="text"></label><p style="color:#222;background:#fff">Readable</p></main></body></html>',
  );
  await checkA11y(page);
});
