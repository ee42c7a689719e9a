import { createRequire } from 'node:module'
import type { Page } from '@playwright/test'
import type { BureauServer } from './support/bureauServer'
import { horizontalOverflow } from './support/overflow'
import { expect, test } from './support/test'
import { axeViolations, snapshot } from './support/ui'

// Settings → MCP servers against `bureau serve` and a real stdio server from npm
// (@modelcontextprotocol/server-everything, a dev dependency).
const require = createRequire(import.meta.url)
const everything = require.resolve('@modelcontextprotocol/server-everything/dist/index.js')
const SECRET = 'mcp-e2e-SECRET-VALUE-must-never-come-back-9f8e'

let bureau: BureauServer
test.beforeAll(async ({ sharedHost }) => {
  await sharedHost.reset()
  bureau = sharedHost.bureau
})
test.beforeEach(async () => {
  await bureau.freshChat()
})
// axe is injected as an inline script, which the app's CSP rightly forbids.
test.use({ bypassCSP: true, viewport: { width: 1280, height: 900 } })

async function openMcpSettings(page: Page) {
  await page.goto(bureau.openUrl)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click()
  const section = page.getByRole('region', { name: 'MCP servers' })
  await section.scrollIntoViewIfNeeded()
  return section
}

async function shoot(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    const violations = await axeViolations(page)
    expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
    // The section at 1280 px; at 400 px what a phone-sized window shows of it.
    const shot = `mcp-${name}-${scheme}`
    if (name.endsWith('-400')) await snapshot(page, shot)
    else await snapshot(page.getByRole('region', { name: 'MCP servers' }), shot)
  }
}

test('adds a real stdio server, sees it connect with its tools, disables and removes it', {
  tag: '@soak',
}, async ({ page }) => {
  const bodies: string[] = []
  page.on('response', async (response) => {
    if (response.url().includes('/ipc/')) bodies.push(await response.text().catch(() => ''))
  })
  const section = await openMcpSettings(page)
  await expect(section.getByText('No MCP servers yet.')).toBeVisible()
  await section.getByRole('button', { name: 'Add server' }).click()
  const form = section.getByRole('form', { name: 'New MCP server' })
  await form.getByLabel('Name', { exact: true }).fill('everything')
  await form.getByLabel('Command').fill(process.execPath)
  await form.getByLabel('Arguments').fill(`${everything}\nstdio`)
  await form.getByRole('button', { name: 'Add variable' }).click()
  await form.getByLabel('Variable name').fill('E2E_TOKEN')
  await form.getByLabel('Value of E2E_TOKEN').fill(SECRET)
  await shoot(page, 'form-1280')
  await form.getByRole('button', { name: 'Save server' }).click()

  const row = section.getByRole('listitem', { name: 'MCP server everything' })
  await expect(row.getByRole('status')).toHaveText(/Connected · \d+ tools/, { timeout: 30_000 })
  await row.getByText('Tools and approvals').click()
  const tools = row.getByRole('list', { name: 'Tools of everything' })
  await expect(tools.getByText('get-sum', { exact: true })).toBeVisible()
  // toggle-simulated-logging is not read-only: it asks by default; set it to allow.
  const toggle = tools.getByRole('combobox', { name: 'Approval for toggle-simulated-logging' })
  await expect(toggle).toContainText('Default (ask)')
  await toggle.selectOption('allow')
  await expect(toggle).toHaveValue('allow')
  await shoot(page, 'connected-1280')
  await page.setViewportSize({ width: 400, height: 900 })
  await section.scrollIntoViewIfNeeded()
  expect(await horizontalOverflow(page)).toEqual([])
  await shoot(page, 'connected-400')
  await page.setViewportSize({ width: 1280, height: 900 })

  // The secret is stored, and shown only as stored.
  await row.getByRole('button', { name: 'Edit' }).click()
  const edit = section.getByRole('form', { name: 'MCP server everything' })
  await expect(edit.getByLabel('Value of E2E_TOKEN')).toHaveValue('')
  await expect(edit.getByLabel('Value of E2E_TOKEN')).toHaveAttribute('placeholder', /Stored/)
  await edit.getByRole('button', { name: 'Cancel' }).click()

  await row.getByRole('checkbox', { name: 'Enabled' }).uncheck()
  await expect(row.getByRole('status')).toHaveText('Disabled')
  await row.getByRole('button', { name: 'Remove everything' }).click()
  await row.getByRole('button', { name: 'Yes, remove everything' }).click()
  await expect(row).toHaveCount(0)
  await expect(section.getByText('No MCP servers yet.')).toBeVisible()
  expect(bodies.filter((b) => b.includes(SECRET))).toEqual([])
  expect(await page.content()).not.toContain(SECRET)
})

test('imports another app’s config and shows a server that fails with its error', async ({ page }) => {
  const section = await openMcpSettings(page)
  await section.getByRole('button', { name: 'Import from another app' }).click()
  await section
    .getByLabel('Configuration from another app')
    .fill(JSON.stringify({ mcpServers: { 'Broken Server': { command: '/no/such/mcp-server' } } }))
  await section.getByRole('button', { name: 'Import' }).click()
  await expect(section.getByText('Imported: broken-server')).toBeVisible({ timeout: 20_000 })
  const row = section.getByRole('listitem', { name: 'MCP server broken-server' })
  await expect(row.getByRole('status')).toHaveText('Failed', { timeout: 20_000 })
  await expect(row).toContainText('the program "/no/such/mcp-server" was not found')
  await expect(row).not.toContainText('ENOENT')
  const notice = page.locator('.notice').filter({ hasText: 'broken-server' })
  await expect(notice).toBeVisible()
  await section.getByRole('button', { name: 'Close' }).click()
  await shoot(page, 'failed-1280')
  await page.setViewportSize({ width: 400, height: 900 })
  await shoot(page, 'failed-400')
  await row.getByRole('button', { name: 'Remove broken-server' }).click()
  await row.getByRole('button', { name: 'Yes, remove broken-server' }).click()
  await expect(row).toHaveCount(0)
  // Its notice goes with it, and a reload does not bring it back.
  await expect(notice).toHaveCount(0)
  await page.reload()
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await expect(page.locator('.notice').filter({ hasText: 'broken-server' })).toHaveCount(0)
})
