import { readFileSync } from 'node:fs'
import { expect, type Page, test } from '@playwright/test'
import { fixturePath } from '../test/support/fixtures'
import { type BureauServer, startBureau } from './support/bureauServer'
import { axeViolations, dropFiles, snapshot } from './support/ui'

// axe-core (WCAG 2.1 A/AA, colour contrast included) on every page in both themes, offline.
const docx = readFileSync(fixturePath('convert', 'test.docx'))

let bureau: BureauServer
test.beforeAll(async () => {
  bureau = await startBureau()
})
test.afterAll(async () => {
  await bureau.stop()
})
// axe is injected as an inline script, which the app's CSP rightly forbids.
test.use({ bypassCSP: true, viewport: { width: 1280, height: 860 } })

async function open(page: Page, name: 'Chat' | 'Workspace' | 'Settings') {
  await page.goto(bureau.openUrl)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(name)
}

function report(violations: Awaited<ReturnType<typeof axeViolations>>): string {
  return violations
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `  ${n.target.join(' ')}: ${n.failureSummary ?? ''}`).join('\n')}`,
    )
    .join('\n')
}

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`${scheme} theme`, () => {
    test.use({ colorScheme: scheme })

    test('chat with attachments in the composer', async ({ page }) => {
      await open(page, 'Chat')
      await dropFiles(page, [
        { name: 'test.docx', bytes: docx },
        { name: 'empty.txt', bytes: new Uint8Array() },
      ])
      await expect(page.getByTestId('attachment-chip')).toHaveCount(1)
      const violations = await axeViolations(page)
      await snapshot(page, `a11y-chat-${scheme}`)
      expect(violations, report(violations)).toEqual([])
    })

    test('settings', async ({ page }) => {
      await open(page, 'Settings')
      await expect(page.getByRole('region', { name: 'Model provider' })).toBeVisible()
      const violations = await axeViolations(page)
      await snapshot(page, `a11y-settings-${scheme}`)
      expect(violations, report(violations)).toEqual([])
    })

    test('workspace', async ({ page }) => {
      await open(page, 'Workspace')
      await expect(page.getByRole('navigation', { name: 'Folder' })).toBeVisible()
      const violations = await axeViolations(page)
      await snapshot(page, `a11y-workspace-${scheme}`)
      expect(violations, report(violations)).toEqual([])
    })
  })
}

test('every control of the chat page is reachable by keyboard with a visible focus ring', async ({
  page,
}) => {
  await open(page, 'Chat')
  const seen = new Set<string>()
  for (let i = 0; i < 14; i++) {
    await page.keyboard.press('Tab')
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null
      if (!el || el === document.body) return null
      const style = getComputedStyle(el)
      return {
        name: el.getAttribute('aria-label') ?? el.textContent?.trim() ?? el.tagName,
        outline: style.outlineStyle !== 'none' && style.outlineWidth !== '0px',
        tag: el.tagName,
      }
    })
    if (!focused) continue
    seen.add(focused.name)
    if (focused.tag !== 'TEXTAREA' && focused.tag !== 'INPUT')
      expect(focused.outline, focused.name).toBe(true)
  }
  for (const name of ['New chat', 'Search conversations', 'Attach files', 'Message'])
    expect([...seen]).toContain(name)
})
