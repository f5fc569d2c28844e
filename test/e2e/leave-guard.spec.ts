import { expect, test, type Page } from '@playwright/test';

/** Opens the edit form of the first active listing the table shows. */
async function openEditForm(page: Page) {
  await page.goto('/listings');
  await page.getByLabel('Status', { exact: true }).selectOption('active');
  await expect(page).toHaveURL(/status=active/);
  const table = page.getByRole('table', { name: 'Listings' });
  await table.getByRole('link').first().click();
  await page.getByRole('link', { name: 'Edit listing' }).click();
  const form = page.getByRole('form', { name: 'Edit listing' });
  await expect(form).toBeVisible();
  return form;
}

/**
 * A form with unsaved changes: closing the tab asks first (the browser's own question), and the
 * seller may stay; an untouched form closes without a question.
 */
test('closing the tab on an unsaved form asks first; an untouched form closes at once', async ({
  page,
  context,
}) => {
  const form = await openEditForm(page);
  await form.getByLabel('Price (USD)').fill('123.00');
  const asked = new Promise<string>((resolve) =>
    page.once('dialog', (dialog) => {
      resolve(dialog.type());
      void dialog.dismiss();
    }),
  );
  await page.close({ runBeforeUnload: true });
  expect(await asked).toBe('beforeunload');
  // Dismissed: the tab stays, with the seller's price still in the field.
  await expect(form.getByLabel('Price (USD)')).toHaveValue('123.00');
  expect(page.isClosed()).toBe(false);

  const untouched = await context.newPage();
  await openEditForm(untouched);
  const dialogs: string[] = [];
  untouched.on('dialog', (dialog) => {
    dialogs.push(dialog.type());
    void dialog.accept();
  });
  const closed = new Promise((resolve) => untouched.once('close', resolve));
  await untouched.close({ runBeforeUnload: true });
  await closed;
  expect(dialogs).toEqual([]);
});

/** Within the dashboard, a link and the browser's back button both ask first, in our dialog. */
test('a link or back from an unsaved form asks first; stay keeps the form, leave goes', async ({
  page,
}) => {
  const form = await openEditForm(page);
  const editing = page.url();
  await form.getByLabel('Price (USD)').fill('123.00');
  const leave = page.getByRole('dialog', { name: 'Leave without saving?' });

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Orders' })
    .click();
  await leave.getByRole('button', { name: 'Stay on this page' }).click();
  await expect(leave).toBeHidden();
  expect(page.url()).toBe(editing);
  await expect(form.getByLabel('Price (USD)')).toHaveValue('123.00');

  await page.goBack();
  await expect(leave).toBeVisible();
  await leave.getByRole('button', { name: 'Leave and lose changes' }).click();
  await expect(page.getByRole('link', { name: 'Edit listing' })).toBeVisible();
  expect(page.url()).not.toBe(editing);
});
