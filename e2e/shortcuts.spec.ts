import type { Page } from '@playwright/test'
import { scriptedHostForSpec } from './support/scriptedHost'
import { expect, test } from './support/test'
import { axeViolations, snapshot } from './support/ui'

// The keyboard shortcuts: Esc wherever focus is, Ctrl+N / Ctrl+K / Ctrl+, and ↑ in the box.
const host = scriptedHostForSpec({ key: 'sk-scripted-keys-key-0000', responder: () => ({ text: 'OK' }) })
test.use({ viewport: { width: 1280, height: 860 }, bypassCSP: true })

const box = (page: Page) => page.getByRole('textbox', { name: 'Message' })
const lastAnswer = (page: Page) => page.getByTestId('assistant-text').last()

async function ask(page: Page, text: string) {
  await box(page).fill(text)
  await box(page).press('Enter')
}

async function startLongAnswer(page: Page) {
  host.llm.setResponder((info) =>
    info.tools.length === 0
      ? { text: 'OK' }
      : { text: 'Streaming words one after another. '.repeat(40), chunkDelayMs: 40, stallAfterChunks: 12 },
  )
  await page.goto(host.bureau.openUrl)
  await ask(page, 'Write something long')
  await expect(lastAnswer(page)).toContainText('Streaming', { timeout: 20_000 })
}

test('Esc stops a streaming answer with focus in the conversation search', async ({ page }) => {
  await startLongAnswer(page)
  await page.getByRole('searchbox', { name: 'Search conversations' }).focus()
  await page.keyboard.press('Escape')
  await expect(page.getByText('Stopped')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible()
  await host.llm.waitUntil(() => host.llm.requests.some((r) => r.aborted))
})

test('Esc stops a streaming answer with focus nowhere in particular (the page body)', async ({ page }) => {
  await startLongAnswer(page)
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
  expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true)
  await page.keyboard.press('Escape')
  await expect(page.getByText('Stopped')).toBeVisible()
  await host.llm.waitUntil(() => host.llm.requests.some((r) => r.aborted))
})

test('Ctrl+N starts a new chat, Ctrl+K focuses the search, Ctrl+, opens Settings', async ({ page }) => {
  await page.goto(host.bureau.openUrl)
  await ask(page, 'Hello there')
  await expect(lastAnswer(page)).toHaveText('OK', { timeout: 20_000 })
  await page.getByRole('searchbox', { name: 'Search conversations' }).focus()
  await page.keyboard.press('Control+n')
  await expect(page.getByRole('list', { name: 'Example requests' })).toBeVisible()
  await expect(box(page)).toBeFocused()

  await page.keyboard.press('Control+k')
  await expect(page.getByRole('searchbox', { name: 'Search conversations' })).toBeFocused()

  await page.keyboard.press('Control+,')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Settings')
  // From Settings, Ctrl+K goes back to the chat with the search focused.
  await page.keyboard.press('Control+k')
  await expect(page.getByRole('searchbox', { name: 'Search conversations' })).toBeFocused()
})

test('at 800 px Ctrl+K opens the conversations drawer with the search focused', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 860 })
  await page.goto(host.bureau.openUrl)
  const list = page.getByRole('complementary', { name: 'Conversations' })
  await expect(list).toBeHidden()
  await box(page).focus()
  await page.keyboard.press('Control+k')
  await expect(list).toBeVisible()
  await expect(list.getByRole('searchbox', { name: 'Search conversations' })).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(list).toBeHidden()
})

test('↑ in the empty message box brings back the last message to edit', async ({ page }) => {
  await page.goto(host.bureau.openUrl)
  await ask(page, 'Summarize the budget')
  await expect(lastAnswer(page)).toHaveText('OK', { timeout: 20_000 })
  await ask(page, 'And the travel costs')
  await expect(lastAnswer(page)).toHaveText('OK')
  await box(page).focus()
  await page.keyboard.press('ArrowUp')
  await expect(box(page)).toHaveValue('And the travel costs')
  // The caret is at the end: typing continues the message.
  await page.keyboard.type(' for May')
  await expect(box(page)).toHaveValue('And the travel costs for May')
  // In a box with text ↑ moves the caret as usual.
  await page.keyboard.press('ArrowUp')
  await expect(box(page)).toHaveValue('And the travel costs for May')
})

test('About lists the shortcuts, and passes axe in light and dark', async ({ page }) => {
  await page.goto(host.bureau.openUrl)
  await page.getByRole('button', { name: 'About' }).click()
  const table = page.getByRole('table', { name: 'Keyboard shortcuts' })
  await expect(table).toBeVisible()
  for (const action of ['New chat', 'Search conversations', 'Open Settings', 'Stop the answer'])
    await expect(table.getByRole('row').filter({ hasText: action })).toHaveCount(1)
  await expect(table.getByRole('row').filter({ hasText: 'Search conversations' })).toContainText('Ctrl+K')
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await snapshot(page, `about-shortcuts-${scheme}`)
    expect(await axeViolations(page)).toEqual([])
  }
})
