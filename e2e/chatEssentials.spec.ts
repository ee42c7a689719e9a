import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { ask, scriptedHostForSpec, waitUntilIdle } from './support/scriptedHost'
import { expect, test } from './support/test'
import { axeTiers, axeViolations, dropFiles, snapshot } from './support/ui'

// Chat essentials in Chromium against `bureau serve` and the scripted model: message actions, versions,
// the model picker, search, export/import, math, instructions, the provider in use.

const host = scriptedHostForSpec({ key: 'sk-scripted-e2e-key-0000', env: { BUREAU_INTERACTION_MODE: 'api' } })
const { script, ipc } = host
test.use({ viewport: { width: 1280, height: 860 }, acceptDownloads: true, bypassCSP: true })

const answers = (page: Page) => page.getByTestId('assistant-text')
const idle = (page: Page) => waitUntilIdle(page)
const chatRequests = () => host.llm.requests.filter((r) => r.endpoint === 'openai.chat')

async function newChat(page: Page) {
  await page.goto(host.bureau.openUrl)
  await page.getByRole('button', { name: 'New chat' }).click()
}

test('regenerate keeps the first answer as version 1/2; ‹ › switches; copy copies', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  script({ text: 'The first answer.' }, { text: 'The second answer.' })
  await newChat(page)
  await ask(page, 'Tell me something')
  await expect(answers(page).last()).toHaveText('The first answer.')
  await idle(page)
  await page.getByRole('button', { name: 'Regenerate' }).click()
  await expect(answers(page).last()).toHaveText('The second answer.')
  await idle(page)
  const bureauRow = page.getByRole('article', { name: 'Bureau' })
  await expect(bureauRow.getByText('Version 2 of 2')).toBeAttached()
  await snapshot(page, 'chat19-versions')
  await bureauRow.getByRole('button', { name: 'Previous version' }).click()
  await expect(answers(page).last()).toHaveText('The first answer.')
  await expect(bureauRow.getByText('Version 1 of 2')).toBeAttached()
  await bureauRow.getByRole('button', { name: 'Copy' }).click()
  await expect(bureauRow.getByRole('button', { name: 'Copied' })).toBeVisible()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('The first answer.')
  // The second request did not carry the first answer.
  expect(JSON.stringify(chatRequests()[1]?.body)).not.toContain('The first answer.')
})

test('edit resends from there as a branch; the old turns stay one click away', async ({ page }) => {
  script((info) => ({ text: `Answer to: ${info.lastUserText}` }))
  await newChat(page)
  await ask(page, 'Plan a trip to Rome')
  await expect(answers(page).last()).toHaveText('Answer to: Plan a trip to Rome')
  await idle(page)
  const you = page.getByRole('article', { name: 'You' })
  await you.getByRole('button', { name: 'Edit' }).click()
  await page.getByRole('textbox', { name: 'Edit message' }).fill('Plan a trip to Lisbon')
  await snapshot(page, 'chat19-edit')
  await you.getByRole('button', { name: 'Send' }).click()
  await expect(answers(page).last()).toHaveText('Answer to: Plan a trip to Lisbon')
  await idle(page)
  await expect(you.getByText('Version 2 of 2')).toBeAttached()
  await you.getByRole('button', { name: 'Previous version' }).click()
  await expect(you).toContainText('Plan a trip to Rome')
  await expect(answers(page).last()).toHaveText('Answer to: Plan a trip to Rome')
})

test('retry after an error sends the same message with the same attachment', async ({ page }) => {
  script({ error: { status: 400, message: 'The request was refused.' } }, (info) => ({
    text: info.lastUserText.includes('Rome in spring') ? 'Read the notes.' : 'No notes.',
  }))
  await newChat(page)
  await dropFiles(page, [{ name: 'notes.txt', bytes: new TextEncoder().encode('Rome in spring is lovely.') }])
  await ask(page, 'Summarize my notes')
  const retry = page.getByRole('button', { name: 'Retry' })
  await expect(retry).toBeVisible({ timeout: 30_000 })
  await snapshot(page, 'chat19-error-retry')
  await retry.click()
  await expect(answers(page).last()).toHaveText('Read the notes.', { timeout: 20_000 })
  const last = chatRequests().at(-1)
  expect(JSON.stringify(last?.body)).toContain('Summarize my notes')
  expect(JSON.stringify(last?.body)).toContain('Rome in spring is lovely.')
})

test('Stop, then Continue streams the rest into the same answer', async ({ page }) => {
  script(
    { text: 'Counting: one two three four five six seven', chunkDelayMs: 30, stallAfterChunks: 5 },
    { text: ' four five six seven.' },
  )
  await newChat(page)
  await ask(page, 'Count to seven')
  await expect(answers(page).last()).toContainText('Counting')
  await page.getByRole('button', { name: 'Stop' }).click()
  await expect(page.getByText('Stopped')).toBeVisible()
  const partial = (await answers(page).last().textContent()) ?? ''
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(answers(page).last()).toHaveText(`${partial} four five six seven.`)
  await idle(page)
  await expect(answers(page)).toHaveCount(1)
  await expect(page.getByText('Stopped')).toHaveCount(0)
})

test('delete removes a question and its answer and keeps the rest', async ({ page }) => {
  script((info) => ({ text: `Re: ${info.lastUserText}` }))
  await newChat(page)
  await ask(page, 'First question')
  await expect(answers(page).last()).toHaveText('Re: First question')
  await idle(page)
  await ask(page, 'Second question')
  await expect(answers(page).last()).toHaveText('Re: Second question')
  await idle(page)
  await page.getByRole('article', { name: 'You' }).first().getByRole('button', { name: 'Delete' }).click()
  await page
    .getByRole('button', { name: 'Delete', exact: true })
    .filter({ hasText: 'Delete' })
    .first()
    .click()
  await expect(answers(page)).toHaveCount(1)
  await expect(answers(page).first()).toHaveText('Re: Second question')
  await page.reload()
  await expect(answers(page)).toHaveCount(1)
})

test('the model picker sends this chat to a second configured provider; the choice is kept', async ({
  page,
}) => {
  await ipc('settings.update', { providers: { deepseek: { baseUrl: host.llm.baseUrl } } })
  await ipc('settings.setSecret', { name: 'providers.deepseek.apiKey', value: 'sk-deepseek-e2e-0000' })
  script({ text: 'Hello from DeepSeek.' }, { text: 'Still DeepSeek.' })
  await newChat(page)
  const picker = page.getByRole('combobox', { name: 'Model' })
  await expect(picker.locator('option', { hasText: 'DeepSeek · deepseek-chat' })).toBeAttached()
  await expect(picker.locator('option', { hasText: /^Default: OpenAI · scripted-model$/ })).toBeAttached()
  await picker.selectOption({ label: 'DeepSeek · deepseek-chat' })
  await ask(page, 'Hi')
  await expect(answers(page).last()).toHaveText('Hello from DeepSeek.')
  await idle(page)
  const first = chatRequests().at(-1)
  expect((first?.body as { model?: string } | undefined)?.model).toBe('deepseek-chat')
  expect(first?.headers.authorization).toBe('Bearer sk-deepseek-e2e-0000')
  await snapshot(page, 'chat19-model-picker')
  await page.reload()
  await expect(page.getByRole('combobox', { name: 'Model' })).toHaveValue(/^deepseek/)
  await ask(page, 'Again')
  await expect(answers(page).last()).toHaveText('Still DeepSeek.')
  expect((chatRequests().at(-1)?.body as { model?: string } | undefined)?.model).toBe('deepseek-chat')
})

test('full-text search finds message text, marks the hit and opens the conversation there', async ({
  page,
}) => {
  script(
    { text: 'The quarterly figures show a rise of 12 % in the Zanzibar office.' },
    { text: 'Unrelated.' },
  )
  await newChat(page)
  await ask(page, 'How did the offices do?')
  await idle(page)
  await newChat(page)
  await ask(page, 'Something else')
  await idle(page)
  await page.getByRole('searchbox', { name: 'Search conversations' }).fill('zanzibar')
  const list = page.getByRole('complementary', { name: 'Conversations' })
  await expect(list.getByRole('listitem')).toHaveCount(1)
  await expect(list.getByTestId('search-hit').locator('mark')).toHaveText('Zanzibar')
  await snapshot(page, 'chat19-search')
  // From the search box, ↓ enters the results and Enter opens the hit; Esc clears the search.
  const box = page.getByRole('searchbox', { name: 'Search conversations' })
  await box.press('ArrowDown')
  await expect(list.getByRole('button', { name: /^How did the offices do/ })).toBeFocused()
  await page.keyboard.press('ArrowUp')
  await expect(box).toBeFocused()
  await box.press('ArrowDown')
  await page.keyboard.press('Enter')
  await expect(page.locator('[data-search-hit="true"]')).toContainText('Zanzibar office')
  await box.press('Escape')
  await expect(box).toHaveValue('')
  await expect(list.getByRole('listitem')).not.toHaveCount(1)
  // A title is shown whole when the row is not hovered: at 1920 px a 40-character title is not cut.
  await page.setViewportSize({ width: 1920, height: 900 })
  await page.mouse.move(1200, 500)
  const title = list.locator('.conversation-title', { hasText: 'How did the offices do?' })
  expect(await title.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true)
  await page.setViewportSize({ width: 1280, height: 860 })
})

test('rename keeps the place in the list; pin moves to the top; a reload reopens the last chat', async ({
  page,
}) => {
  script((info) => ({ text: `Re: ${info.lastUserText}` }))
  await newChat(page)
  await ask(page, 'Older chat')
  await idle(page)
  await newChat(page)
  await ask(page, 'Newer chat')
  await idle(page)
  const items = page.getByRole('complementary', { name: 'Conversations' }).getByRole('listitem')
  await expect(items.first()).toContainText('Newer chat')
  await page.getByRole('button', { name: 'Rename Older chat' }).click()
  await page.getByRole('textbox', { name: 'Conversation title' }).fill('Renamed older')
  await page.getByRole('textbox', { name: 'Conversation title' }).press('Enter')
  await expect(items.nth(1)).toContainText('Renamed older')
  await page.getByRole('button', { name: 'Pin Renamed older' }).click()
  await expect(items.first()).toContainText('Renamed older')
  await expect(page.getByRole('button', { name: 'Unpin Renamed older' })).toHaveAttribute(
    'aria-pressed',
    'true',
  )
  await items
    .first()
    .getByRole('button', { name: /Renamed older/ })
    .first()
    .click()
  await expect(answers(page).last()).toHaveText('Re: Older chat')
  await page.reload()
  await expect(answers(page).last()).toHaveText('Re: Older chat')
})

test('export as Markdown and JSON with the attachment and receipts; the JSON imports back', async ({
  page,
}) => {
  script({ text: 'Noted: **the notes** are short.' })
  await newChat(page)
  await dropFiles(page, [{ name: 'notes.txt', bytes: new TextEncoder().encode('Buy milk.') }])
  await ask(page, 'Read my notes')
  await expect(answers(page).last()).toContainText('Noted', { timeout: 30_000 })
  await idle(page)
  const [md] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export Markdown' }).click(),
  ])
  expect(md.suggestedFilename()).toBe('Read-my-notes.md')
  const markdown = readFileSync(await md.path(), 'utf8')
  expect(markdown).toContain('# Read my notes')
  // Earlier tests of this file may have saved a notes.txt already: the inbox name is then notes-2.txt.
  expect(markdown).toMatch(/Attached: notes\.txt \(\/inbox\/notes(-\d+)?\.txt\)/)
  expect(markdown).toContain('Noted: **the notes** are short.')
  const [json] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export JSON' }).click(),
  ])
  const jsonPath = test.info().outputPath('export.json')
  await json.saveAs(jsonPath)
  const exported = JSON.parse(readFileSync(jsonPath, 'utf8'))
  expect(exported.format).toBe('bureau-conversation')
  expect(exported.conversation.messages[0].attachments[0]).toMatchObject({
    name: 'notes.txt',
    agentPath: expect.stringMatching(/^\/inbox\/notes(-\d+)?\.txt$/),
  })

  await page.getByTestId('import-input').setInputFiles(jsonPath)
  const items = page
    .getByRole('complementary', { name: 'Conversations' })
    .getByRole('listitem')
    .filter({ hasText: 'Read my notes' })
  await expect(items).toHaveCount(2)
  await expect(answers(page).last()).toContainText('Noted: the notes are short.')
  await page
    .getByTestId('import-input')
    .setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"format":"x"}') })
  await expect(page.getByRole('alert').filter({ hasText: 'bad.json' })).toContainText(
    'not a Bureau conversation export',
  )
})

test('LaTeX math renders inline and display; HTML in math stays text', async ({ page }) => {
  script({
    text: 'Inline $a^2 + b^2 = c^2$ and a price of $5.\n\n$$\n\\sum_{k=1}^{n} k = \\frac{n(n+1)}{2}\n$$\n\nAnd $<img src=x onerror="window.__x=1">$.',
  })
  await newChat(page)
  await ask(page, 'Show me math')
  const answer = answers(page).last()
  await expect(answer.locator('.katex-display')).toBeVisible({ timeout: 20_000 })
  await expect(answer.locator('.katex').first()).toBeVisible()
  await expect(answer).toContainText('a price of $5.')
  await expect(answer.locator('img')).toHaveCount(0)
  expect(await page.evaluate(() => (window as unknown as { __x?: number }).__x)).toBeUndefined()
  await idle(page)
  await snapshot(page, 'chat19-math')
})

test('instructions: the global one in Settings with its token count, the chat’s own in the header; both reach the model', async ({
  page,
}) => {
  script({ text: 'D’accord.' })
  await page.goto(host.bureau.openUrl)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click()
  const agent = page.getByRole('region', { name: 'Agent' })
  await agent.getByRole('textbox', { name: 'Custom instruction' }).fill('Always answer in French.')
  await expect(agent.getByText(/Added to the system prompt of every conversation: \d+ tokens/)).toBeVisible()
  await agent.getByRole('button', { name: 'Save' }).click()
  await expect(agent.getByRole('button', { name: 'Save' })).toBeDisabled()
  await snapshot(page, 'chat19-settings-instructions')
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Chat' }).click()
  await page.getByRole('button', { name: 'New chat' }).click()
  await ask(page, 'Hello')
  await idle(page)
  await page.getByRole('button', { name: 'Instructions' }).click()
  await page
    .getByRole('textbox', { name: 'Instructions for this conversation' })
    .fill('Use the formal register.')
  await expect(page.getByTestId('conversation-instruction-tokens')).toContainText(/\d+ tokens/)
  await page
    .getByRole('region', { name: 'Instructions for this conversation' })
    .getByRole('button', { name: 'Save' })
    .click()
  await ask(page, 'Again')
  await expect(answers(page)).toHaveCount(2)
  await idle(page)
  const first = (chatRequests().at(-1)?.body as { messages: Array<{ content?: string }> } | undefined)
    ?.messages[0]
  const system = String(first?.content ?? '')
  const section = system.slice(system.indexOf('## Custom instructions'))
  expect(section).toContain('Always answer in French.')
  expect(section).toContain('Use the formal register.')
  await ipc('settings.update', { agent: { instructions: '' } })
})

for (const { title, tag, axeAt } of axeTiers([1280, 800, 400])) {
  test(`each answer names its model; the header sets this chat’s temperature and answer length, checked and sent${title}`, {
    tag,
  }, async ({ page }) => {
    script({ text: 'Warm.' }, { text: 'Cool.' })
    await newChat(page)
    await ask(page, 'Hello')
    await idle(page)
    await expect(page.getByTestId('answered-by').last()).toHaveText(/^Answered by \S.* · \S/)
    await page.getByRole('button', { name: 'Answer settings' }).click()
    const panel = page.getByRole('form', { name: 'Answer settings for this conversation' })
    await panel.getByRole('textbox', { name: 'Temperature' }).fill('3')
    await panel.getByRole('textbox', { name: 'Max output tokens' }).fill('ten')
    await expect(panel.getByText('At most 2.')).toBeVisible()
    await expect(panel.getByText('Enter a number.')).toBeVisible()
    await panel.getByRole('button', { name: 'Save' }).click()
    await expect(panel.getByRole('textbox', { name: 'Temperature' })).toBeFocused()
    for (const width of [1280, 800, 400]) {
      await page.setViewportSize({ width, height: 860 })
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme })
        await snapshot(page, `chat-sampling-${width}-${scheme}`)
        if (axeAt(width, scheme)) expect(await axeViolations(page), `${width} px, ${scheme}`).toEqual([])
      }
    }
    await page.setViewportSize({ width: 1280, height: 860 })
    await page.emulateMedia({ colorScheme: 'light' })
    await panel.getByRole('textbox', { name: 'Temperature' }).fill('0.3')
    await panel.getByRole('textbox', { name: 'Max output tokens' }).fill('400')
    await panel.getByRole('button', { name: 'Save' }).click()
    await expect(page.getByRole('button', { name: 'Temperature 0.3 · ≤ 400 tokens' })).toBeVisible()
    await ask(page, 'Again')
    await expect(answers(page)).toHaveCount(2)
    await idle(page)
    const body = chatRequests().at(-1)?.body as { temperature?: number; max_tokens?: number }
    expect(body.temperature).toBe(0.3)
    expect(body.max_tokens).toBe(400)
  })
}

test('Settings shows the provider in use, marked from BUREAU_PROVIDER, and tests that one', async ({
  page,
}) => {
  script({ text: 'pong' })
  await page.goto(host.bureau.openUrl)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click()
  const section = page.getByRole('region', { name: 'Model provider' })
  await expect(section.getByTestId('provider-in-use')).toContainText('OpenAI')
  await expect(section.getByTestId('provider-in-use')).toContainText('from BUREAU_PROVIDER')
  await section.getByRole('button', { name: 'Test OpenAI' }).click()
  await expect(section.getByText(/Connected in \d+ ms · scripted-model/)).toBeVisible({ timeout: 20_000 })
  await snapshot(page, 'chat19-settings-provider')
})

for (const scheme of ['light', 'dark'] as const) {
  // The light theme in npm test, the dark one in the soak tier.
  test(`axe passes on the new controls (${scheme})`, { tag: scheme === 'dark' ? ['@soak'] : [] }, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: scheme })
    script({ text: 'First $x^2$.' }, { text: 'Second $y^2$.' })
    await newChat(page)
    await ask(page, 'Math please')
    await idle(page)
    await page.getByRole('button', { name: 'Regenerate' }).click()
    await expect(answers(page).last()).toContainText('Second')
    await idle(page)
    await page.getByRole('button', { name: 'Instructions' }).click()
    await page.getByRole('searchbox', { name: 'Search conversations' }).fill('math')
    await expect(page.getByTestId('search-hit')).toHaveCount(0)
    await page.getByRole('article', { name: 'You' }).getByRole('button', { name: 'Delete' }).click()
    const violations = await axeViolations(page)
    await snapshot(page, `chat19-a11y-${scheme}`)
    expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
  })
}
