import type { ScriptedLlm } from '../test/support/scriptedLlm'
import type { BureauServer } from './support/bureauServer'
import { expect, test } from './support/test'
import { snapshot } from './support/ui'

// Error texts that say what really happened.
let llm: ScriptedLlm
let bureau: BureauServer
test.beforeAll(async ({ sharedHost }) => {
  await sharedHost.reset()
  ;({ llm, bureau } = sharedHost)
})
test.use({ viewport: { width: 1280, height: 860 } })

test('a stream cut mid-answer keeps the partial answer and says the connection was lost after N words', async ({
  page,
}) => {
  llm.setResponder((info) =>
    info.tools.length === 0
      ? { text: 'OK' }
      : { malformed: 'sse', text: 'The budget grew by four percent in the second quarter because' },
  )
  await page.goto(bureau.openUrl)
  const box = page.getByRole('textbox', { name: 'Message' })
  await box.fill('Why did the budget grow?')
  await box.press('Enter')
  const banner = page.getByRole('alert').filter({ hasText: 'was lost after' })
  await expect(banner.first()).toBeVisible({ timeout: 20_000 })
  await expect(banner.first()).toContainText(/lost after \d+ words?/)
  await expect(page.getByText('No model provider reachable')).toHaveCount(0)
  await expect(page.getByTestId('assistant-text').last()).toContainText('The budget grew')
  await snapshot(page, 'chat-stream-cut')
})

test('a rejected key from BUREAU_API_KEY names that variable and the Model provider section', async ({
  page,
}) => {
  llm.setResponder((info) => (info.tools.length === 0 ? { text: 'OK' } : { error: { status: 401 } }))
  await page.goto(bureau.openUrl)
  const box = page.getByRole('textbox', { name: 'Message' })
  await box.fill('Hello')
  await box.press('Enter')
  const banner = page.getByRole('alert').filter({ hasText: 'API key' }).first()
  await expect(banner).toBeVisible({ timeout: 20_000 })
  await expect(banner).toContainText('BUREAU_API_KEY')
  await expect(banner).not.toContainText('OPENAI_API_KEY')
  await expect(banner).not.toContainText('Settings → Providers')
})
