import type { Page } from '@playwright/test'
import type { ScriptedLlm } from '../test/support/scriptedLlm'
import type { BureauServer } from './support/bureauServer'
import { expect, test } from './support/test'
import { axeTiers, axeViolations, snapshot } from './support/ui'

// The Automations page: list, next run, enable switch, the editor's preview, a run's history opening
// its conversation; axe at 1280 and 400 px in both themes.

let llm: ScriptedLlm
let bureau: BureauServer
test.beforeAll(async ({ sharedHost }) => {
  await sharedHost.reset()
  ;({ llm, bureau } = sharedHost)
})
test.use({ bypassCSP: true, viewport: { width: 1280, height: 900 } })

async function ipc(page: Page, route: string, data: unknown): Promise<unknown> {
  const response = await page.request.post(`${bureau.url}/ipc/${route}`, {
    headers: { authorization: `Bearer ${bureau.token}` },
    data,
  })
  expect(response.ok(), await response.text()).toBe(true)
  return response.json()
}

for (const { title, tag, axeAt } of axeTiers([1280, 400])) {
  test(`Automations: list, preview, enable switch, run now, history opens the conversation; axe clean${title}`, {
    tag,
  }, async ({ page }) => {
    await ipc(page, 'automations.create', {
      name: 'Inbox summary',
      prompt: 'Summarize new mail from clients.',
      trigger: { kind: 'schedule', cron: 'every weekday at 8:00', timeZone: 'Europe/Berlin' },
    })
    await page.goto(bureau.openUrl)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Automations' }).click()
    const region = page.getByRole('region', { name: 'Automations' })
    await expect(region.getByRole('heading', { name: 'Inbox summary' })).toBeVisible()
    await expect(region.getByText(/Next run: /)).not.toContainText('—')

    await region.getByRole('button', { name: 'New automation' }).click()
    const editor = region.getByRole('form', { name: 'New automation' })
    await editor.getByLabel(/Schedule/).fill('every friday at 16:00')
    await expect(editor.getByText(/Next 5 runs: /)).toBeVisible()
    await editor.getByLabel(/Schedule/).fill('0 8 32 * *')
    await expect(editor.getByText(/day of month field "32" at column 5/)).toBeVisible()
    await editor.getByRole('button', { name: 'Cancel' }).click()

    for (const width of [1280, 400]) {
      await page.setViewportSize({ width, height: 900 })
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme })
        await snapshot(region, `automations-${width}-${scheme}`)
        if (axeAt(width, scheme)) expect(await axeViolations(page), `${width} px, ${scheme}`).toEqual([])
      }
    }
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.emulateMedia({ colorScheme: 'light' })

    const enabled = region.getByRole('checkbox', { name: 'Enabled' })
    // The switch shows what was stored: it changes once the list is read back.
    await enabled.click()
    await expect(enabled).not.toBeChecked()
    await expect(region.getByText(/Next run: —/)).toBeVisible()
    await enabled.click()
    await expect(enabled).toBeChecked()

    llm.push({ text: 'Three client mails: all about invoices.' })
    await region.getByRole('button', { name: 'Run now' }).click()
    await expect(region.getByText('Last result: ok')).toBeVisible({ timeout: 20_000 })
    await region.getByRole('button', { name: 'History' }).click()
    await region.getByRole('button', { name: 'Open conversation' }).click()
    // The run's notice may still show the same words: the answer in the opened conversation is meant.
    await expect(
      page.getByTestId('assistant-text').getByText('Three client mails: all about invoices.'),
    ).toBeVisible()
  })
}
