import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { fixturePath } from '../test/support/fixtures'
import type { ScriptedLlm } from '../test/support/scriptedLlm'
import type { BureauServer } from './support/bureauServer'
import { expect, test } from './support/test'
import { axeViolations, dropFiles, snapshot } from './support/ui'

// Chips show Reading…, then Ready or the converter's error, from the real conversion.
const docx = readFileSync(fixturePath('core', 'report.docx'))
const randomBin = readFileSync(fixturePath('core', 'random.bin'))

let llm: ScriptedLlm
let bureau: BureauServer
test.beforeAll(async ({ sharedHost }) => {
  await sharedHost.reset()
  ;({ llm, bureau } = sharedHost)
})
test.beforeEach(() => bureau.freshChat())
// axe is injected as an inline script, which the app's CSP rightly forbids.
test.use({ bypassCSP: true, viewport: { width: 1280, height: 860 } })

/** Holds the pre-send checks until `release` is called, so the Reading… state can be seen. */
async function holdChecks(page: Page): Promise<() => void> {
  let release = () => {}
  const gate = new Promise<void>((resolve) => {
    release = resolve
  })
  await page.route('**/ipc/attachments.check', async (route) => {
    await gate
    await route.continue()
  })
  return release
}

const chip = (page: Page, name: string) =>
  page.getByRole('list', { name: 'Files to send' }).getByTestId('attachment-chip').filter({ hasText: name })

test('a good .docx reads as Ready, random.bin shows the converter error; removed by keyboard, Send goes with the good one', {
  tag: '@soak',
}, async ({ page }) => {
  let asked = ''
  llm.setResponder((info) => {
    asked = info.lastUserText
    return { text: 'The document is about AutoGen.' }
  })
  await page.goto(bureau.openUrl)
  const release = await holdChecks(page)
  await dropFiles(page, [
    { name: 'test.docx', bytes: docx },
    { name: 'random.bin', bytes: randomBin },
  ])
  await expect(chip(page, 'test.docx').getByRole('status')).toHaveText('test.docx: Reading…')
  await expect(chip(page, 'random.bin').getByRole('status')).toHaveText('random.bin: Reading…')
  await expect(page.getByText('Ready')).toHaveCount(0)
  release()

  await expect(chip(page, 'test.docx')).toHaveAttribute('data-status', 'ready', { timeout: 30_000 })
  await expect(chip(page, 'test.docx').getByRole('status')).toHaveText('test.docx: Ready')
  const bad = chip(page, 'random.bin')
  await expect(bad).toHaveAttribute('data-status', 'failed', { timeout: 30_000 })
  await expect(bad.getByRole('alert')).toContainText('Cannot convert "random.bin":')
  // The error chip does not block Send.
  await expect(page.getByRole('button', { name: 'Send' })).toBeEnabled()
  await page.getByRole('textbox', { name: 'Message' }).fill('What is this document about?')

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    for (const width of [1280, 400]) {
      await page.setViewportSize({ width, height: 860 })
      await snapshot(page, `chips-${width}-${scheme}`)
    }
  }
  await page.setViewportSize({ width: 1280, height: 860 })
  await page.emulateMedia({ colorScheme: 'light' })

  await bad.getByRole('button', { name: 'Remove random.bin' }).focus()
  await page.keyboard.press('Enter')
  await expect(bad).toHaveCount(0)
  // Focus stays in the list, on the remaining chip's Remove.
  await expect(page.getByRole('button', { name: 'Remove test.docx' })).toBeFocused()

  await page.getByRole('button', { name: 'Send' }).click()
  await expect(page.getByTestId('assistant-text').last()).toContainText('about AutoGen', { timeout: 30_000 })
  // The model got the converted document, and nothing of the removed file.
  expect(asked).toContain('Harbour Street')
  expect(asked).not.toContain('random.bin')
})

// The spec's shared page in each theme, not a new browser context per theme: a fresh context compiles the
// whole renderer again.
test('the error chip passes axe in light and dark', async ({ page }) => {
  await page.goto(bureau.openUrl)
  await dropFiles(page, [{ name: 'random.bin', bytes: randomBin }])
  await expect(chip(page, 'random.bin')).toHaveAttribute('data-status', 'failed', { timeout: 30_000 })
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    const violations = await axeViolations(page)
    expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
  }
})
