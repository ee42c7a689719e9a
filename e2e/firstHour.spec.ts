import { type ScriptedLlm, startScriptedLlm } from '../test/support/scriptedLlm'
import { type BureauServer, startBureau } from './support/bureauServer'
import { horizontalOverflow } from './support/overflow'
import { expect, test } from './support/test'
import { axeViolations, snapshot } from './support/ui'

// The first hour of a new user in Settings → Model provider: a typed key is kept by the main Save, the
// provider in use follows at once, and a named OpenAI-compatible server is added with its models.

let llm: ScriptedLlm
let bureau: BureauServer
test.beforeAll(async () => {
  llm = await startScriptedLlm({ models: ['office-7b', 'office-14b'] })
  bureau = await startBureau([])
})
test.afterAll(async () => {
  await bureau.stop()
  await llm.close()
})
// axe is injected as an inline script, which the app's CSP rightly forbids.
test.use({ bypassCSP: true, viewport: { width: 1280, height: 900 } })

async function providerSection(page: import('@playwright/test').Page) {
  await page.goto(bureau.openUrl)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click()
  return page.getByRole('region', { name: 'Model provider' })
}

test('a key typed and saved with the main Save is kept, and In use follows without a reload', async ({
  page,
}) => {
  const provider = await providerSection(page)
  await provider.getByRole('combobox', { name: 'Provider' }).selectOption('deepseek')
  await provider.getByRole('button', { name: 'Enter key' }).click()
  await provider.getByLabel('New api key').fill('sk-first-hour-key-9876')
  await provider.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(provider.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible()
  await expect(provider.getByTestId('provider-in-use')).toContainText('DeepSeek')
  await expect(provider.getByTestId('secret-status')).toHaveText('Set · sk-…9876')
  await page.reload()
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click()
  await expect(page.getByRole('region', { name: 'Model provider' }).getByTestId('secret-status')).toHaveText(
    'Set · sk-…9876',
  )
})

test('adds a named OpenAI-compatible server with the models it lists, and uses it', { tag: '@soak' }, async ({
  page,
}) => {
  const provider = await providerSection(page)
  await provider.getByRole('button', { name: 'Add an OpenAI-compatible provider…' }).click()
  const group = provider.getByRole('group', { name: 'Add an OpenAI-compatible provider' })
  await group.getByRole('button', { name: 'Add and use' }).click()
  await expect(group.getByRole('textbox', { name: 'Name' })).toBeFocused()
  await expect(group.getByText('Enter a name.')).toBeVisible()
  await expect(group.getByText('Enter a model name.')).toBeVisible()
  await group.getByRole('textbox', { name: 'Name' }).fill('Office LLM')
  await group.getByRole('textbox', { name: 'Base URL' }).fill(llm.baseUrl)
  await group.getByRole('button', { name: 'Load models' }).click()
  await expect(group.getByText('2 models listed by the server; any name can be typed.')).toBeVisible()
  await group.getByRole('combobox', { name: 'Model' }).fill('office-14b')
  for (const width of [1280, 800, 400]) {
    await page.setViewportSize({ width, height: 900 })
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      await snapshot(provider, `settings-provider-add-${width}-${scheme}`)
      const violations = await axeViolations(page)
      expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
        [],
      )
    }
    expect(await horizontalOverflow(page)).toEqual([])
  }
  await page.emulateMedia({ colorScheme: 'light' })
  await page.setViewportSize({ width: 1280, height: 900 })
  await group.getByRole('button', { name: 'Add and use' }).click()
  await expect(provider.getByTestId('provider-in-use')).toContainText('Office LLM · office-14b')
  await expect(provider.getByRole('combobox', { name: 'Provider' })).toHaveValue('office-llm')
  llm.push({ text: 'OK' })
  await provider.getByRole('button', { name: 'Test connection' }).click()
  await expect(provider.getByText(/Connected in \d+ ms · office-14b/)).toBeVisible()
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await snapshot(provider, `settings-provider-custom-1280-${scheme}`)
  }
  await page.emulateMedia({ colorScheme: 'light' })
  await provider.getByRole('button', { name: 'Remove Office LLM…' }).click()
  await provider.getByRole('button', { name: 'Remove', exact: true }).click()
  await expect(provider.getByRole('combobox', { name: 'Provider' })).not.toHaveValue('office-llm')
  await expect(
    provider.getByRole('combobox', { name: 'Provider' }).locator('option', { hasText: 'Office LLM' }),
  ).toHaveCount(0)
})

test('keyboard: the chat opens with the message box focused, and the first Tab stop skips to it', async ({
  page,
}) => {
  await page.goto(bureau.openUrl)
  const box = page.getByRole('textbox', { name: 'Message' })
  await expect(box).toBeFocused()
  // The skip button is the first Tab stop of the page, shown when it has the focus.
  const first = await page.evaluate(
    () =>
      document.querySelector('a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])')
        ?.textContent,
  )
  expect(first).toBe('Skip to the message box')
  const skip = page.getByRole('button', { name: 'Skip to the message box' })
  await skip.focus()
  await expect(skip).toBeInViewport()
  await snapshot(page, 'skip-link-1280')
  await page.keyboard.press('Enter')
  await expect(box).toBeFocused()
})
