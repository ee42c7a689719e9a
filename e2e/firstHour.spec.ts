import { type ScriptedLlm, startScriptedLlm } from '../test/support/scriptedLlm'
import { type BureauServer, startBureau } from './support/bureauServer'
import { horizontalOverflow } from './support/overflow'
import { expect, test } from './support/test'
import { axeTiers, axeViolations, snapshot } from './support/ui'

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
    // Tall enough for the whole section with the form: the settings page scrolls inside the app.
    await page.setViewportSize({ width, height: 2200 })
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

test('keyboard: at every width the chat opens with the message box focused, and the first Tab stop skips to it', async ({
  page,
}) => {
  const box = page.getByRole('textbox', { name: 'Message' })
  const skip = page.getByRole('button', { name: 'Skip to the message box' })
  // Below 1000 px the conversations are a drawer and the navigation an icon rail: each layout is loaded.
  for (const width of [400, 800, 1280, 1920]) {
    await page.setViewportSize({ width, height: 800 })
    await page.goto(bureau.openUrl)
    await expect(box, `${width} px`).toBeFocused()
    // The skip button is the first Tab stop of the page, shown when it has the focus.
    const first = await page.evaluate(
      () =>
        document.querySelector('a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])')
          ?.textContent,
    )
    expect(first, `${width} px`).toBe('Skip to the message box')
    await skip.focus()
    await expect(skip, `${width} px`).toBeInViewport()
    await snapshot(page, `skip-link-${width}`)
    await page.keyboard.press('Enter')
    await expect(box, `${width} px`).toBeFocused()
  }
})

for (const { title, tag, axeAt } of axeTiers([1280, 800, 400, 360])) {
  test(`the Workspace page: where it is, upload, new folder, rename, delete with Undo, search, backups named, at 360 to 1280 px${title}`, {
    tag,
  }, async ({ page }) => {
    const ipc = (route: string, body: unknown) =>
      page.request.post(`${bureau.url}/ipc/${route}`, {
        headers: { authorization: `Bearer ${bureau.token}` },
        data: body,
      })
    await page.goto(bureau.openUrl)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Workspace' }).click()
    await expect(page.getByTestId('workspace-root')).toHaveText(bureau.workspace)
    await page.getByLabel('Files to upload').setInputFiles([
      { name: 'budget.csv', mimeType: 'text/csv', buffer: Buffer.from('item,amount\nrent,1200\n') },
      { name: 'minutes.md', mimeType: 'text/markdown', buffer: Buffer.from('# Minutes\n') },
    ])
    await expect(
      page.getByRole('status').filter({ hasText: 'Uploaded budget.csv, minutes.md.' }),
    ).toBeVisible()
    const table = page.getByRole('table')
    await expect(table.getByRole('button', { name: 'Download budget.csv' })).toBeVisible()

    await page.getByRole('button', { name: 'New folder' }).click()
    await page.getByRole('button', { name: 'Create' }).click()
    await expect(page.getByText('Enter a name.')).toBeVisible()
    await page.getByRole('textbox', { name: 'Folder name' }).fill('Reports')
    await page.getByRole('button', { name: 'Create' }).click()
    await expect(table.getByRole('button', { name: 'Open folder Reports' })).toBeVisible()

    await table.getByRole('button', { name: 'Rename minutes.md' }).click()
    await page.getByRole('textbox', { name: 'New name for minutes.md' }).fill('minutes-q3.md')
    await page.keyboard.press('Enter')
    await expect(table.getByRole('button', { name: 'Download minutes-q3.md' })).toBeVisible()

    await table.getByRole('button', { name: 'Delete minutes-q3.md' }).click()
    await table
      .getByRole('group', { name: 'Delete minutes-q3.md?' })
      .getByRole('button', { name: 'Delete' })
      .click()
    await expect(table.getByRole('button', { name: 'Download minutes-q3.md' })).toHaveCount(0)
    await page.getByRole('button', { name: 'Undo' }).click()
    await expect(table.getByRole('button', { name: 'Download minutes-q3.md' })).toBeVisible()

    // A file written twice keeps its first version as a numbered backup, which says whose it is.
    for (const text of ['v1', 'v2']) {
      const bytes = { $bin: Buffer.from(text).toString('base64') }
      const answer = await ipc('workspace.upload', { folder: '/', name: 'test.xlsx', bytes, replace: true })
      expect(answer.status(), await answer.text()).toBe(200)
    }
    await page.getByRole('button', { name: 'Refresh' }).click()
    await expect(table.getByText('Backup 1 of test.xlsx')).toBeVisible()

    const search = page.getByRole('searchbox', { name: 'Search the workspace' })
    await search.fill('BUDG')
    await expect(page.getByText('1 found for “BUDG” in the whole workspace.')).toBeVisible()
    for (const width of [1280, 800, 400, 360]) {
      await page.setViewportSize({ width, height: 800 })
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme })
        await snapshot(page, `workspace-search-${width}-${scheme}`)
      }
      expect(await horizontalOverflow(page), `${width} px`).toEqual([])
    }
    await search.press('Escape')
    await expect(search).toHaveValue('')
    for (const width of [1280, 800, 400, 360]) {
      await page.setViewportSize({ width, height: 800 })
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme })
        await snapshot(page, `workspace-${width}-${scheme}`)
        const violations = axeAt(width, scheme) ? await axeViolations(page) : []
        expect(
          violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
        ).toEqual([])
      }
      expect(await horizontalOverflow(page), `${width} px`).toEqual([])
    }
  })
}

test('the e-mail and MCP forms show every error beside its field and focus the first on Save, axe clean', async ({
  page,
}) => {
  await page.goto(bureau.openUrl)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click()
  const email = page.getByRole('region', { name: 'E-mail' })
  await email.getByRole('button', { name: 'Add account' }).click()
  const account = email.getByRole('form', { name: 'New e-mail account' })
  await account.getByLabel('From address').fill('not-an-email')
  await account.getByLabel('IMAP port').fill('99999')
  await account.getByRole('button', { name: 'Save account' }).click()
  await expect(account.getByText('Enter an e-mail address, e.g. ana@example.com.')).toBeVisible()
  await expect(account.getByText('A port is between 1 and 65535.')).toBeVisible()
  await expect(account.getByText('Enter the password (stored encrypted).')).toBeVisible()
  await expect(account.getByLabel('Account name')).toBeFocused()

  const mcp = page.getByRole('region', { name: 'MCP servers' })
  await mcp.getByRole('button', { name: 'Add server' }).click()
  const server = mcp.getByRole('form', { name: 'New MCP server' })
  await server.getByRole('button', { name: 'Add variable' }).click()
  await server.getByLabel('Variable name').fill('1BAD')
  await server.getByRole('button', { name: 'Save server' }).click()
  await expect(server.getByText('Give the command that starts the server.')).toBeVisible()
  await expect(server.getByText('"1BAD" is not a valid name (letters, digits, - and _).')).toBeVisible()
  await expect(server.getByLabel(/^Name/)).toBeFocused()

  for (const width of [1280, 800, 400]) {
    // Tall enough for the whole e-mail form: the settings page scrolls inside the app, not the document.
    await page.setViewportSize({ width, height: 1600 })
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      await snapshot(account, `form-errors-email-${width}-${scheme}`)
      await snapshot(server, `form-errors-mcp-${width}-${scheme}`)
      const violations = await axeViolations(page)
      expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
        [],
      )
    }
    expect(await horizontalOverflow(page), `${width} px`).toEqual([])
  }
})
