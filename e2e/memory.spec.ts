import type { Page } from '@playwright/test'
import type { ScriptedLlm } from '../test/support/scriptedLlm'
import type { BureauServer } from './support/bureauServer'
import { expect, test } from './support/test'
import { axeViolations, snapshot } from './support/ui'

// Settings → Memory: the list with search, edit in place, delete with undo, pause, forget everything
// with undo; axe at a wide and a narrow width in both themes. Then the memory card in the chat.

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

async function openMemory(page: Page) {
  await page.goto(bureau.openUrl)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click()
  const section = page.getByRole('region', { name: 'Memory' })
  await section.scrollIntoViewIfNeeded()
  return section
}

test('Settings → Memory: add, search, edit, delete and undo, pause, forget everything and undo; axe clean', {
  tag: '@soak',
}, async ({ page }) => {
  await ipc(page, 'memory.add', { text: 'Invoices go to /finance/invoices', scope: 'everywhere' })
  await ipc(page, 'memory.add', { text: 'Anna means anna.berg@firma.de', scope: 'everywhere' })
  const section = await openMemory(page)
  const list = section.getByRole('list', { name: 'Memories' })
  await expect(list.getByRole('listitem')).toHaveCount(2)

  // Added in Settings, for this workspace only; a key is refused with the reason.
  await section.getByLabel('New memory', { exact: true }).fill('Reports use the blue template')
  await section.getByLabel('Where the new memory applies').selectOption('workspace')
  await section.getByRole('button', { name: 'Remember' }).click()
  await expect(list.getByRole('listitem')).toHaveCount(3)
  await expect(list.getByRole('listitem', { name: 'Memory: Reports use the blue template' })).toContainText(
    'This workspace',
  )
  await section
    .getByLabel('New memory', { exact: true })
    .fill('my token: ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5')
  await section.getByRole('button', { name: 'Remember' }).click()
  await expect(section.getByRole('alert')).toContainText('Not stored: this looks like a GitHub token')
  await section.getByLabel('New memory', { exact: true }).fill('')

  for (const width of [1280, 800, 400]) {
    await page.setViewportSize({ width, height: 900 })
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      await section.scrollIntoViewIfNeeded()
      await snapshot(section, `memory-settings-${width}-${scheme}`)
      expect(await axeViolations(page), `${width} px, ${scheme}`).toEqual([])
    }
  }
  await page.emulateMedia({ colorScheme: 'light' })
  await page.setViewportSize({ width: 1280, height: 900 })

  await section.getByLabel('Search memories').fill('anna')
  await expect(list.getByRole('listitem')).toHaveCount(1)
  await section.getByLabel('Search memories').fill('')
  await expect(list.getByRole('listitem')).toHaveCount(3)

  // Edit in place.
  const invoices = list.getByRole('listitem', { name: 'Memory: Invoices go to /finance/invoices' })
  await invoices.getByRole('button', { name: 'Edit' }).click()
  await list.getByLabel('Memory text').fill('Invoices go to /finance/2026/invoices')
  await list.getByRole('button', { name: 'Save' }).click()
  await expect(
    list.getByRole('listitem', { name: 'Memory: Invoices go to /finance/2026/invoices' }),
  ).toBeVisible()

  // Delete, then undo.
  await list
    .getByRole('listitem', { name: 'Memory: Anna means anna.berg@firma.de' })
    .getByRole('button', { name: 'Delete' })
    .click()
  await expect(list.getByRole('listitem')).toHaveCount(2)
  await section.getByRole('button', { name: 'Undo' }).click()
  await expect(list.getByRole('listitem')).toHaveCount(3)

  // Pause.
  await section.getByRole('checkbox', { name: 'Pause memory' }).check()
  await expect(section.getByRole('note')).toContainText('Memory is paused')
  const paused = async () =>
    ((await ipc(page, 'memory.list', {})) as { preferences: { paused: boolean } }).preferences.paused
  await expect.poll(paused).toBe(true)
  await section.getByRole('checkbox', { name: 'Pause memory' }).uncheck()
  await expect(section.getByRole('note')).toHaveCount(0)
  await expect.poll(paused).toBe(false)

  // Forget everything, then undo within the minute.
  await section.getByRole('button', { name: 'Forget everything' }).click()
  await expect(section.getByRole('status')).toContainText('Forgot 3 memories.')
  await expect(section.getByText('No memories yet.')).toBeVisible()
  await snapshot(section, 'memory-settings-forgotten')
  await section.getByRole('button', { name: 'Undo' }).click()
  await expect(list.getByRole('listitem')).toHaveCount(3)
  expect(((await ipc(page, 'memory.list', {})) as { memories: unknown[] }).memories).toHaveLength(3)
})

test('the model proposes a memory: the card, Keep, and the chip under the next answer', async ({ page }) => {
  await bureau.freshChat()
  llm.push(
    { toolCalls: [{ name: 'open_toolset', arguments: { toolset: 'memory' } }] },
    {
      toolCalls: [
        {
          name: 'memory_remember',
          arguments: { text: 'Client mails are signed "Jan Berger, Office"', distinct: true },
        },
      ],
    },
    { toolCalls: [{ name: 'done', arguments: { message: 'I will sign that way.' } }] },
  )
  await page.goto(bureau.openUrl)
  await page.getByRole('textbox', { name: /message/i }).fill('Sign client mails as "Jan Berger, Office"')
  await page.keyboard.press('Enter')
  const card = page.getByTestId('memory-card')
  // A model call, a disclosure step and the proposal's checks before the card: slow on a busy machine.
  await expect(card).toContainText('Bureau wants to remember:', { timeout: 30_000 })
  await expect(card).toContainText('Client mails are signed "Jan Berger, Office"')
  await snapshot(card, 'memory-card')
  expect(await axeViolations(page)).toEqual([])
  await card.getByRole('button', { name: 'Edit' }).click()
  await card.getByLabel('Memory text').fill('Client mails are signed "Jan Berger, Office Manager"')
  await card.getByRole('button', { name: 'Keep' }).click()
  await expect(page.getByText('I will sign that way.')).toBeVisible({ timeout: 30_000 })
  const listed = (await ipc(page, 'memory.list', { query: 'signed' })) as {
    memories: Array<{ text: string }>
  }
  expect(listed.memories.map((m) => m.text)).toContain('Client mails are signed "Jan Berger, Office Manager"')

  await bureau.freshChat()
  llm.push({ text: 'Done, signed as Jan Berger.' })
  await page.goto(bureau.openUrl)
  await page.getByRole('textbox', { name: /message/i }).fill('Write a short client mail, signed as usual')
  await page.keyboard.press('Enter')
  await expect(page.getByText('Done, signed as Jan Berger.')).toBeVisible({ timeout: 30_000 })
  const chip = page.getByRole('button', { name: /Used \d+ memor/ })
  await chip.click()
  await expect(page.getByRole('list', { name: 'Memories used for this answer' })).toContainText(
    'Client mails are signed "Jan Berger, Office Manager"',
  )
  const body = (llm.requests.at(-1)?.body ?? {}) as { messages?: Array<{ role: string; content: string }> }
  const system = body.messages?.[0]
  expect(system?.role).toBe('system')
  expect(system?.content).toContain('Client mails are signed "Jan Berger, Office Manager"')
})
