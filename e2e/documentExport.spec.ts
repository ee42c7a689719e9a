import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { strFromU8, unzipSync } from 'fflate'
import { ask, scriptedHostForSpec, waitUntilIdle } from './support/scriptedHost'
import { expect, test } from './support/test'
import { axeViolations, snapshot } from './support/ui'

// The chat's "Export document" menu writes a real Word file of the conversation, with a Download of the
// saved file, and each answer's own Export writes that answer alone.

const host = scriptedHostForSpec({ key: 'sk-scripted-e2e-key-0000', env: { BUREAU_INTERACTION_MODE: 'api' } })
test.use({ viewport: { width: 1280, height: 860 }, bypassCSP: true, acceptDownloads: true })

const ANSWER = 'The Zanzibar office grew by 12 %.\n\n| Office | Growth |\n|---|---:|\n| Zanzibar | 12 % |'

async function askAndWait(page: Page) {
  host.llm.setResponder(() => ({ text: ANSWER }))
  await page.goto(host.bureau.openUrl)
  const box = page.getByRole('textbox', { name: 'Message' })
  await box.fill('How did the offices do?')
  await box.press('Enter')
  await expect(page.getByTestId('assistant-text').last()).toContainText('Zanzibar office grew')
  await waitUntilIdle(page)
}

test('exports the conversation to a real .docx from the keyboard', async ({ page }) => {
  await askAndWait(page)
  const summary = page.locator('summary', { hasText: 'Export document' })
  await summary.focus()
  await page.keyboard.press('Enter')
  const word = page.getByRole('menuitem', { name: 'Word (.docx)' })
  await expect(word).toBeVisible()
  for (const width of [1280, 400]) {
    await page.setViewportSize({ width, height: 860 })
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      await snapshot(page, `docs-menu-${width}-${scheme}`)
      expect(await axeViolations(page), `${width} px ${scheme}`).toEqual([])
    }
  }
  await page.emulateMedia({ colorScheme: 'light' })
  await page.setViewportSize({ width: 1280, height: 860 })
  await word.focus()
  await page.keyboard.press('Enter')
  const saved = page.getByRole('status').filter({ hasText: 'Saved to' })
  await expect(saved).toBeVisible({ timeout: 60_000 })
  await snapshot(page, 'docs-done-1280-light')
  const agentPath = (await saved.locator('code').textContent()) ?? ''
  expect(agentPath).toMatch(/^\/exports\/.+\.docx$/)
  const parts = unzipSync(new Uint8Array(await readFile(join(host.bureau.workspace, agentPath))))
  const xml = strFromU8(parts['word/document.xml'] ?? new Uint8Array())
  expect(xml).toContain('The Zanzibar office grew by 12 %.')
  expect(xml).toContain('How did the offices do?')
  expect(xml).toContain('<w:tbl>')
  // The saved file is one click from the browser's downloads, byte for byte what the workspace holds.
  const name = agentPath.split('/').pop() ?? ''
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    saved.getByRole('button', { name: `Download ${name}` }).click(),
  ])
  expect(download.suggestedFilename()).toBe(name)
  const downloaded = await readFile(await download.path())
  expect(downloaded.equals(await readFile(join(host.bureau.workspace, agentPath)))).toBe(true)
})

const docxText = async (agentPath: string) => {
  const parts = unzipSync(new Uint8Array(await readFile(join(host.bureau.workspace, agentPath))))
  return strFromU8(parts['word/document.xml'] ?? new Uint8Array())
}

test("an answer's Export writes only that answer, from the keyboard, at 400 to 1280 px", {
  tag: '@soak',
}, async ({ page }) => {
  host.script({ text: 'Answer one: the Zanzibar office grew.' }, { text: 'Answer two: Tromsø shrank.' })
  await page.goto(host.bureau.openUrl)
  const answers = page.getByRole('article', { name: 'Bureau' })
  await ask(page, 'First question?')
  await expect(answers.first()).toContainText('Answer one')
  await waitUntilIdle(page)
  await ask(page, 'Second question?')
  await expect(answers.nth(1)).toContainText('Answer two')
  await waitUntilIdle(page)
  const first = answers.first()
  const summary = first.locator('summary', { hasText: 'Export' })
  await summary.focus()
  await page.keyboard.press('Enter')
  const menu = first.getByRole('menu', { name: 'Export this answer' })
  await expect(menu).toBeVisible()
  for (const width of [1280, 800, 400]) {
    await page.setViewportSize({ width, height: 860 })
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      // The formats are on screen, not clipped by the list or covered by the next message.
      await expect(menu).toBeInViewport({ ratio: 1 })
      await snapshot(page, `docs-answer-menu-${width}-${scheme}`)
      expect(await axeViolations(page), `${width} px ${scheme}`).toEqual([])
    }
  }
  await page.keyboard.press('ArrowDown')
  await expect(menu.getByRole('menuitem', { name: 'Word (.docx)' })).toBeFocused()
  await page.keyboard.press('Enter')
  const saved = first.getByRole('status').filter({ hasText: 'Saved to' })
  await expect(saved).toBeVisible({ timeout: 60_000 })
  await snapshot(page, 'docs-answer-done-400-dark')
  const xml = await docxText((await saved.locator('code').textContent()) ?? '')
  expect(xml).toContain('Answer one: the Zanzibar office grew.')
  // The conversation's title (its first question) heads the file; no question and no other answer is in it.
  for (const other of ['Answer two', 'Second question?', 'You ·']) expect(xml).not.toContain(other)
  expect(xml.match(/Bureau · /g)).toHaveLength(1)
})
