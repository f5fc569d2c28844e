import type { Page } from '@playwright/test';

/**
 * Arms the next keystroke on an input (by id, or the focused element): its keydown time, then the
 * first frame after the input event has been handled (React renders a discrete input
 * synchronously, so the updated table is in the DOM by then; the rAF waits for it to be painted).
 */
const arm = (elementId: string | null) => `(() => {
  const input = ${elementId === null ? 'document.activeElement' : `document.getElementById(${JSON.stringify(elementId)})`};
  window.__key = {};
  input.addEventListener('keydown', (event) => { window.__key.down = event.timeStamp; }, { once: true });
  input.addEventListener('input', () => {
    setTimeout(() => requestAnimationFrame(() => { window.__key.done = performance.now(); }), 0);
  }, { once: true });
})()`;

/** One keystroke, keydown to the next painted frame, in milliseconds. */
export async function keystrokeMs(
  page: Page,
  key: string,
  elementId: string | null = null,
): Promise<number> {
  await page.evaluate(arm(elementId));
  await page.keyboard.press(key);
  await page.waitForFunction('window.__key.done !== undefined');
  return (await page.evaluate('window.__key.done - window.__key.down')) as number;
}
