import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Locator, Page } from '@playwright/test'
import { CHROMIUM_PATH } from '../playwright.config'
import type { ScriptedLlm } from '../test/support/scriptedLlm'
import { closeBureauBrowser } from './support/bureauBrowser'
import { type BureauServer, startBureau } from './support/bureauServer'
import { expect, test } from './support/test'
import { snapshot } from './support/ui'

const SECRET = 'sk-e2e-THIS-KEY-MUST-NEVER-COME-BACK-a1b2'

let llm: ScriptedLlm
let bureau: BureauServer
test.beforeAll(async ({ sharedHost }) => {
  await sharedHost.reset()
  ;({ llm, bureau } = sharedHost)
})
test.use({ viewport: { width: 1280, height: 900 } })

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true })
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name))
}

async function enterKeyFlow(page: Page, bureau: BureauServer) {
  const bodies: string[] = []
  page.on('response', async (response) => {
    if (response.url().includes('/ipc/settings') || response.url().includes('/ipc/providers'))
      bodies.push(await response.text().catch(() => ''))
  })
  await page.goto(bureau.openUrl)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Settings')
  const provider = page.getByRole('region', { name: 'Model provider' })
  await provider.getByRole('combobox', { name: 'Provider' }).selectOption('deepseek')
  await provider.getByRole('button', { name: 'Save' }).click()
  await expect(provider.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible()
  await expect(provider.getByTestId('secret-status')).toHaveText(/Not set/)
  await provider.getByRole('button', { name: 'Enter key' }).click()
  await provider.getByLabel('New api key').fill(SECRET)
  await snapshot(page, 'settings-entering-key')
  await provider.getByRole('button', { name: 'Save key' }).click()
  await expect(provider.getByTestId('secret-status')).toHaveText('Set · sk-…a1b2')
  await expect(provider.getByLabel('New api key')).toHaveCount(0)
  await snapshot(page, 'settings-key-set')

  await page.reload()
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click()
  await expect(page.getByRole('region', { name: 'Model provider' }).getByTestId('secret-status')).toHaveText(
    'Set · sk-…a1b2',
  )
  expect(await page.content()).not.toContain(SECRET)
  const values = await page
    .locator('input, textarea')
    .evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))
  expect(values.join('\n')).not.toContain(SECRET)

  const direct = await page.request.post(`${bureau.url}/ipc/settings.get`, {
    headers: { authorization: `Bearer ${bureau.token}` },
    data: {},
  })
  expect(direct.ok()).toBe(true)
  bodies.push(await direct.text())
  expect(bodies.length).toBeGreaterThan(2)
  for (const body of bodies) expect(body).not.toContain(SECRET)
  for (const file of await filesUnder(bureau.dataDir))
    expect((await readFile(file)).includes(SECRET)).toBe(false)

  await page.getByRole('region', { name: 'Model provider' }).getByRole('button', { name: 'Clear' }).click()
  await expect(page.getByRole('region', { name: 'Model provider' }).getByTestId('secret-status')).toHaveText(
    /Not set/,
  )
}

test('validation errors show next to the field and nothing is saved', async ({ page }) => {
  await page.goto(bureau.openUrl)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click()
  const attachments = page.getByRole('region', { name: 'Attachments' })
  const budget = attachments.getByRole('textbox', { name: 'Budget (characters)' })
  await budget.fill('12')
  await attachments.getByRole('button', { name: 'Save' }).click()
  await expect(budget).toHaveAttribute('aria-invalid', 'true')
  await expect(attachments.getByRole('alert')).toContainText('between 1,000 and 2,000,000')
  await snapshot(page, 'settings-validation')
  const direct = await page.request.post(`${bureau.url}/ipc/settings.get`, {
    headers: { authorization: `Bearer ${bureau.token}` },
    data: {},
  })
  expect(((await direct.json()) as { attachments: { budgetChars: number } }).attachments.budgetChars).toBe(
    30000,
  )
})

test('the Agent section limits sub-agents to chosen toolsets and the workspace keeps fewer backups', async ({
  page,
}) => {
  await page.goto(bureau.openUrl)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click()
  const agent = page.getByRole('region', { name: 'Agent' })
  await agent.getByRole('radio', { name: 'Only these toolsets' }).check()
  const choices = agent.getByRole('list', { name: 'Toolsets a sub-agent may use' })
  await choices.getByRole('checkbox', { name: /spreadsheet/ }).check()
  await agent.getByRole('textbox', { name: 'Steps per request' }).fill('30')
  await agent.getByRole('button', { name: 'Save' }).click()
  await expect(agent.getByText('Saved')).toBeVisible()

  const workspace = page.getByRole('region', { name: 'Workspace folder' })
  const backups = workspace.getByRole('textbox', { name: 'Backups kept per file' })
  const folder = workspace.getByRole('textbox', { name: 'Folder' })
  await folder.fill('relative/folder')
  await backups.fill('-1')
  await workspace.getByRole('button', { name: 'Save' }).click()
  // Both errors at once, each beside its field; the first wrong field has the focus.
  await expect(workspace.getByText(/^Enter the full path of the folder/)).toBeVisible()
  await expect(workspace.getByText(/between 0 and 10,000/)).toBeVisible()
  await expect(folder).toBeFocused()
  await folder.fill('')
  await backups.fill('5')
  await workspace.getByRole('button', { name: 'Save' }).click()
  await expect(workspace.getByText('Saved')).toBeVisible()
  await snapshot(page, 'settings-agent')

  const direct = await page.request.post(`${bureau.url}/ipc/settings.get`, {
    headers: { authorization: `Bearer ${bureau.token}` },
    data: {},
  })
  const saved = (await direct.json()) as {
    agent: { subagents: unknown; maxIterations: number }
    workspace: { backupsToKeep: number }
  }
  expect(saved.agent).toMatchObject({ subagents: ['spreadsheet'], maxIterations: 30 })
  expect(saved.workspace.backupsToKeep).toBe(5)
})

test('Test connection reports the latency of a round trip to the provider', async ({ page }) => {
  llm.reset()
  llm.setResponder(() => ({ text: 'pong' }))
  await page.goto(bureau.openUrl)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click()
  const provider = page.getByRole('region', { name: 'Model provider' })
  await provider.getByRole('combobox', { name: 'Provider' }).selectOption('openai')
  if (await provider.getByRole('button', { name: 'Save' }).isEnabled())
    await provider.getByRole('button', { name: 'Save' }).click()
  // With BUREAU_PROVIDER deciding, the button names the provider it tests ("Test OpenAI").
  await provider.getByRole('button', { name: /^Test / }).click()
  await expect(provider.getByText(/Connected in \d+ ms/)).toBeVisible()
  expect(llm.requests.some((r) => r.endpoint === 'openai.chat')).toBe(true)
  await snapshot(page, 'settings-test-connection')
})

test('the theme applies at once and the loaded plugins are listed', async ({ page }) => {
  await page.goto(bureau.openUrl)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click()
  const appearance = page.getByRole('region', { name: 'Appearance' })
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor)
  // The page runs with a light system scheme: forcing Dark must switch the palette itself.
  expect(await background()).toBe('rgb(255, 255, 255)')
  await appearance.getByRole('radio', { name: 'Dark' }).check()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  expect(await background()).toBe('rgb(22, 24, 29)')
  const tools = page.getByRole('region', { name: 'Tools and plugins' })
  await tools.scrollIntoViewIfNeeded()
  await expect(tools.getByRole('list', { name: 'Loaded plugins' })).toContainText('text')
  await snapshot(page, 'settings-dark-tools')
  await appearance.getByRole('radio', { name: 'System' }).check()
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', /.+/)
  expect(await background()).toBe('rgb(255, 255, 255)')
})

async function browserSection(page: Page, bureau: BureauServer): Promise<Locator> {
  await page.goto(bureau.openUrl)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click()
  const section = page.getByRole('region', { name: 'Browser' })
  await section.scrollIntoViewIfNeeded()
  return section
}

/** Types the browser executable and saves it; the start button waits for the save (the route reads saved settings). */
async function saveExecutable(section: Locator, path: string, start: Locator) {
  await section.getByRole('textbox', { name: 'Browser executable' }).fill(path)
  await expect(start).toBeDisabled()
  await section.getByRole('button', { name: 'Save' }).click()
  await expect(section.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible()
  await expect(start).toBeEnabled()
}

test.describe('on a host without a provider from the environment', () => {
  // One host for these tests, not one each: no BUREAU_API_KEY (the only key is the one typed here),
  // and the browser settings they save touch no test of the main host; the browser runs headless.
  let own: BureauServer
  test.beforeAll(async () => {
    own = await startBureau([], { BUREAU_BROWSER_HEADLESS: '1' })
  })
  test.afterAll(async () => {
    await own.stop()
  })

  // First, so that its look through the data folder for the key runs before a browser profile is there.
  test('an API key is shown only as set with a hint, never again, and never in settings responses', async ({
    page,
  }) => {
    await enterKeyFlow(page, own)
  })

  // Before the start that succeeds: a failed start leaves the mode at its default.
  test('Start Edge for Bureau explains a browser that cannot start and what to do', async ({ page }) => {
    const bureau = own
    const section = await browserSection(page, bureau)
    const start = section.getByRole('button', { name: 'Start Edge for Bureau' })
    // A program that exits at once instead of opening a DevTools port.
    await saveExecutable(section, '/bin/false', start)
    await start.click()
    const alert = section.getByRole('alert')
    await expect(alert).toContainText('did not open its DevTools port', { timeout: 30_000 })
    await expect(alert).toContainText('What to do: correct or empty the browser executable')
    await snapshot(page, 'settings-browser-start-failed')
    await expect(section.getByRole('combobox', { name: 'Mode' })).toHaveValue('edge-profile')
  })

  test('Start Edge for Bureau starts the browser on the Bureau profile and switches the mode to cdp', async ({
    page,
  }) => {
    const bureau = own
    try {
      const section = await browserSection(page, bureau)
      const start = section.getByRole('button', { name: 'Start Edge for Bureau' })
      await saveExecutable(section, CHROMIUM_PATH, start)

      await start.click()
      const shown = section.getByTestId('bureau-browser-endpoint')
      await expect(shown).toHaveText(/^http:\/\/127\.0\.0\.1:\d+$/, { timeout: 30_000 })
      const endpoint = (await shown.textContent()) ?? ''
      await expect(section.getByRole('status').filter({ hasText: 'Started Chromium at' })).toBeVisible()
      await expect(section.getByRole('combobox', { name: 'Mode' })).toHaveValue('cdp')
      await expect(section.getByRole('textbox', { name: 'CDP endpoint' })).toHaveValue(endpoint)
      await snapshot(page, 'settings-browser-started')

      const saved = await page.request.post(`${bureau.url}/ipc/settings.get`, {
        headers: { authorization: `Bearer ${bureau.token}` },
        data: {},
      })
      expect(((await saved.json()) as { browser: unknown }).browser).toMatchObject({
        mode: 'cdp',
        cdpEndpoint: endpoint,
      })
      expect((await fetch(`${endpoint}/json/version`)).ok).toBe(true)

      // A second start finds the running browser and reuses it.
      await start.click()
      await expect(section.getByRole('status').filter({ hasText: 'already running' })).toBeVisible()
      await expect(shown).toHaveText(endpoint)
    } finally {
      await closeBureauBrowser(bureau.dataDir)
    }
  })
})
