import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { fixturePath } from '../test/support/fixtures'
import type { ScriptedLlm } from '../test/support/scriptedLlm'
import { type BureauServer, startBureau } from './support/bureauServer'
import { expect, test } from './support/test'
import { axeTiers, axeViolations, dropFiles, snapshot } from './support/ui'

// axe-core (WCAG 2.1 A/AA, colour contrast included) on every page in both themes, offline.
const docx = readFileSync(fixturePath('core', 'report.docx'))

// A working provider (the scripted model answers the connection test): the chat page shows what a set-up
// user sees. The first-run guide (no provider works) has its own server and test below.
let llm: ScriptedLlm
let bureau: BureauServer
test.beforeAll(async ({ sharedHost }) => {
  await sharedHost.reset()
  ;({ llm, bureau } = sharedHost)
  llm.setResponder(() => ({ text: 'OK' }))
})
// axe is injected as an inline script, which the app's CSP rightly forbids.
test.use({ bypassCSP: true, viewport: { width: 1280, height: 860 } })

async function open(page: Page, name: 'Chat' | 'Workspace' | 'Settings', server = bureau) {
  await page.goto(server.openUrl)
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

// The dark theme's pages run in the soak tier: npm test checks chat, Settings and Workspace in both themes
// at two widths in layout.spec.ts already.
for (const scheme of ['light', 'dark'] as const) {
  test.describe(`${scheme} theme`, { tag: scheme === 'dark' ? ['@soak'] : [] }, () => {
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

interface Focused {
  name: string
  outline: boolean
  tag: string
}

/** Presses Tab `presses` times and returns each focused control's name, failing on a missing focus ring. */
async function tabThrough(page: Page, presses: number): Promise<Set<string>> {
  const seen = new Set<string>()
  for (let i = 0; i < presses; i++) {
    await page.keyboard.press('Tab')
    const focused = await page.evaluate((): Focused | null => {
      const el = document.activeElement as HTMLElement | null
      if (!el || el === document.body) return null
      const style = getComputedStyle(el)
      const label = el.getAttribute('aria-label') ?? (el as HTMLInputElement).labels?.[0]?.textContent
      return {
        name: (label ?? el.textContent ?? el.tagName).trim(),
        outline: style.outlineStyle !== 'none' && style.outlineWidth !== '0px',
        tag: el.tagName,
      }
    })
    if (!focused) continue
    seen.add(focused.name)
    if (focused.tag !== 'TEXTAREA' && focused.tag !== 'INPUT')
      expect(focused.outline, focused.name).toBe(true)
  }
  return seen
}

test('every control of the chat page is reachable by keyboard with a visible focus ring', async ({
  page,
}) => {
  await open(page, 'Chat')
  const seen = await tabThrough(page, 14)
  for (const name of ['New chat', 'Search conversations', 'Attach files', 'Message'])
    expect([...seen]).toContain(name)
})

// One first-run host for both tests: the first only looks and tabs, the second then sends a message.
test.describe('no provider works (first-run guide shown)', () => {
  let bare: BureauServer
  test.beforeAll(async () => {
    // Nothing answers on port 9: the default provider fails its connection test.
    bare = await startBureau([], { BUREAU_BASE_URL: 'http://127.0.0.1:9' }, { firstRun: true })
  })
  test.afterAll(async () => {
    await bare?.stop()
  })

  test('the guide and the composer are reachable by keyboard with a visible focus ring', async ({ page }) => {
    const guide = page.getByRole('region', { name: 'No model is set up yet' })
    // The guide opened beside the composer leaves the focus in the message box, at every layout.
    for (const width of [400, 800, 1280]) {
      await page.setViewportSize({ width, height: 800 })
      await page.goto(bare.openUrl)
      await expect(guide.getByRole('button', { name: 'Look again' })).toBeVisible({ timeout: 20_000 })
      await expect(page.getByRole('textbox', { name: 'Message' }), `${width} px`).toBeFocused()
    }
    await open(page, 'Chat', bare)
    await expect(guide.getByRole('button', { name: 'Look again' })).toBeVisible({ timeout: 20_000 })
    await expect(
      guide
        .getByRole('region', { name: 'Download a local model' })
        .getByRole('button', { name: /^Download / }),
    ).toBeVisible()
    await expect(
      guide
        .getByRole('region', { name: 'Talk to Bureau offline' })
        .getByRole('button', { name: /^Download both/ }),
    ).toBeVisible()
    const seen = [...(await tabThrough(page, 24))]
    expect(seen.some((name) => name.startsWith('Download '))).toBe(true)
    for (const name of ['Look again', 'Provider', 'API key', 'Attach files', 'Message'])
      expect(
        seen.some((seenName) => seenName.startsWith(name)),
        `${name} in ${seen.join(', ')}`,
      ).toBe(true)
  })

  for (const { title, tag, axeAt } of axeTiers([1280, 800, 400]))
    test(`the guide folds to one line, so the message and its error stay in view at 1280×800${title}`, {
      tag,
    }, async ({ page }) => {
      // The fast and the full copy share the host: each starts from an empty chat, with the guide unfolded.
      await bare.freshChat()
      await page.setViewportSize({ width: 1280, height: 800 })
      await page.goto(bare.openUrl)
      const guide = page.getByRole('region', { name: 'No model is set up yet' })
      await expect(guide.getByRole('button', { name: 'Look again' })).toBeVisible({ timeout: 20_000 })
      await page.getByRole('textbox', { name: 'Message' }).fill('Summarise the report, please.')
      await page.getByRole('button', { name: 'Send' }).click()
      const error = page.getByRole('alert').filter({ hasText: /reach|connect/i })
      await expect(error).toBeInViewport({ timeout: 20_000 })
      await expect(page.locator('.message-user').getByText('Summarise the report, please.')).toBeInViewport()
      await expect(guide.getByRole('button', { name: 'Set up a model…' })).toBeVisible()
      const errorText = error.locator('.banner-text')
      const openSettings = error.getByRole('button', { name: 'Open Settings' })
      for (const width of [1280, 800, 400]) {
        await page.setViewportSize({ width, height: 800 })
        for (const scheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme: scheme })
          await snapshot(page, `first-run-folded-${width}-${scheme}`)
          const violations = axeAt(width, scheme) ? await axeViolations(page) : []
          expect(violations, report(violations)).toEqual([])
        }
        await expect(page.getByRole('textbox', { name: 'Message' })).toBeInViewport()
        // The error's text keeps a readable column: where the button beside it would leave only a few
        // words a line, the button goes under the text.
        const text = await errorText.boundingBox()
        const button = await openSettings.boundingBox()
        if (!text || !button) throw new Error(`the error card is not laid out at ${width} px`)
        expect(text.width, `${width} px`).toBeGreaterThan(200)
        if (width === 400) expect(button.y, `${width} px`).toBeGreaterThanOrEqual(text.y + text.height - 1)
      }
      await page.emulateMedia({ colorScheme: 'light' })
      // Opened again, the guide takes at most half the column: the message is still there.
      await page.setViewportSize({ width: 1280, height: 800 })
      await guide.getByRole('button', { name: 'Set up a model…' }).click()
      await expect(guide.getByRole('region', { name: 'Enter a cloud key' })).toBeAttached()
      await expect(page.getByRole('textbox', { name: 'Message' })).toBeInViewport()
      const heights = await page.evaluate(() => ({
        guide: document.querySelector('.first-run')?.getBoundingClientRect().height ?? 0,
        column: document.querySelector('.chat-main')?.getBoundingClientRect().height ?? 0,
      }))
      expect(heights.guide).toBeLessThanOrEqual(heights.column / 2 + 1)
      await snapshot(page, 'first-run-opened-1280-light')
    })
})
