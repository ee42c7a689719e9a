import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import type { ChatRequestInfo, Turn } from '../test/support/scriptedLlm'
import { horizontalOverflow } from './support/overflow'
import { ask, scriptedHostForSpec } from './support/scriptedHost'
import { expect, test } from './support/test'
import { axeTiers, axeViolations, snapshot } from './support/ui'

// The approval card in the chat, against `bureau serve` and the scripted model. A rule
// `files: ask` makes the workspace's writes ask, so no browser or site is needed.

const host = scriptedHostForSpec({
  key: 'sk-scripted-approve-key-0000',
  env: { BUREAU_INTERACTION_MODE: 'api' },
  afterStart: (started) =>
    started.ipc('settings.update', { approvals: { rules: { files: 'ask' } } }).then(() => {}),
})
const { ipc } = host
// axe is injected as an inline script, which the app's CSP rightly forbids.
test.use({ bypassCSP: true, viewport: { width: 1280, height: 860 } })

interface OpenAiMessage {
  role: string
  content?: unknown
  tool_calls?: Array<{ function: { name: string } }>
}
const toolNames = (info: ChatRequestInfo) =>
  (info.tools as Array<{ function?: { name?: string } }>).map((t) => t.function?.name)
const calledTools = (info: ChatRequestInfo) =>
  (info.messages as OpenAiMessage[]).flatMap((m) => (m.tool_calls ?? []).map((c) => c.function.name))

const LONG = `Minutes of the meeting. ${'All agreed on the plan. '.repeat(20)}`

/** The model opens `files` (unless already open), writes one file, then finishes. */
function scriptWrite(path: string) {
  host.llm.setResponder((info): Turn => {
    if (!calledTools(info).includes('files_write_text')) {
      if (!toolNames(info).includes('files_write_text'))
        return { toolCalls: [{ name: 'open_toolset', arguments: { toolset: 'files' } }] }
      return { toolCalls: [{ name: 'files_write_text', arguments: { path, content: LONG } }] }
    }
    return { toolCalls: [{ name: 'done', arguments: { message: 'Finished with the notes.' } }] }
  })
}

const card = (page: Page) => page.getByRole('alertdialog', { name: 'Allow this action?' })

function report(violations: Awaited<ReturnType<typeof axeViolations>>): string {
  return violations
    .map((v) => `${v.id}: ${v.help} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
    .join('\n')
}

test('the card shows the exact call, passes axe in both themes, and Allow once runs it', async ({ page }) => {
  scriptWrite('/notes/minutes.txt')
  await page.goto(host.bureau.openUrl)
  await ask(page, 'Save the minutes')

  const dialog = card(page)
  await expect(dialog).toBeVisible({ timeout: 20_000 })
  await expect(dialog).toBeFocused()
  // Named as the step timeline names it.
  await expect(dialog).toContainText('files.write_text')
  await expect(dialog).toContainText('/notes/minutes.txt')
  await expect(dialog).toContainText('Changes files')
  // The long content is cut on the card; the whole text is its tooltip.
  const content = dialog.locator('dd[title]')
  await expect(content).toHaveAttribute('title', LONG)
  expect(((await content.textContent()) ?? '').length).toBeLessThan(LONG.length)
  expect(existsSync(join(host.bureau.workspace, 'notes', 'minutes.txt'))).toBe(false)

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    const violations = await axeViolations(page)
    await snapshot(dialog, `approval-card-${scheme}`)
    expect(violations, report(violations)).toEqual([])
  }
  await page.setViewportSize({ width: 400, height: 800 })
  await expect(dialog).toBeVisible()
  await snapshot(page, 'approval-card-400-dark')
  expect(await horizontalOverflow(page)).toEqual([])
  const box = await dialog.boundingBox()
  for (const button of await dialog.getByRole('button').all()) {
    const b = await button.boundingBox()
    expect(b && box && b.x + b.width <= box.x + box.width).toBe(true)
  }
  await page.emulateMedia({ colorScheme: 'light' })

  // Keyboard: Tab from the card reaches Allow once first.
  await page.keyboard.press('Tab')
  await expect(dialog.getByRole('button', { name: 'Allow once' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(dialog).toBeHidden()
  await expect(page.getByTestId('assistant-text').last()).toContainText('Finished with the notes', {
    timeout: 20_000,
  })
  expect(readFileSync(join(host.bureau.workspace, 'notes', 'minutes.txt'), 'utf8')).toBe(LONG)
})

test('Deny: the call does not run and the model gets the denial as the tool result', async ({ page }) => {
  scriptWrite('/notes/denied.txt')
  await page.goto(host.bureau.openUrl)
  await ask(page, 'Save other notes')

  const dialog = card(page)
  await expect(dialog).toBeVisible({ timeout: 20_000 })
  await dialog.getByRole('button', { name: 'Deny' }).click()
  await expect(dialog).toBeHidden()
  await expect(page.getByTestId('assistant-text').last()).toContainText('Finished with the notes', {
    timeout: 20_000,
  })
  expect(existsSync(join(host.bureau.workspace, 'notes', 'denied.txt'))).toBe(false)
  // The timeline counts it as denied, in words for the user, not as a failure.
  const answer = page.locator('.message-assistant').last()
  await answer.getByText('1 step, 1 denied').click()
  await answer.getByText('files.write_text').click()
  await expect(answer.getByText('You denied this call: it was not run.')).toBeVisible()
  await expect(answer.getByText(/failed|Go on without it/)).toHaveCount(0)
  for (const width of [1280, 800, 400]) {
    await page.setViewportSize({ width, height: 860 })
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      await snapshot(answer, `denied-call-${width}-${scheme}`)
    }
  }
  const chats = host.llm.requests.filter((r) => r.endpoint === 'openai.chat')
  const last = chats[chats.length - 1]?.body as { messages: OpenAiMessage[] }
  const toolResult = last.messages.filter((m) => m.role === 'tool').pop()
  expect(JSON.stringify(toolResult?.content)).toContain('Denied by the user')
})

test('an unanswered card is denied at its timeout and leaves a note', { tag: '@soak' }, async ({ page }) => {
  await ipc('settings.update', { approvals: { timeoutSeconds: 5 } })
  try {
    scriptWrite('/notes/late.txt')
    await page.goto(host.bureau.openUrl)
    await ask(page, 'Save late notes')
    const dialog = card(page)
    await expect(dialog).toBeVisible({ timeout: 20_000 })
    await expect(dialog).toBeHidden({ timeout: 20_000 })
    await expect(page.getByRole('status').filter({ hasText: 'Denied: no answer in time' })).toBeVisible()
    await expect(page.getByTestId('assistant-text').last()).toContainText('Finished with the notes', {
      timeout: 20_000,
    })
    expect(existsSync(join(host.bureau.workspace, 'notes', 'late.txt'))).toBe(false)
    const chats = host.llm.requests.filter((r) => r.endpoint === 'openai.chat')
    expect(chats[chats.length - 1]?.rawBody).toContain('nobody approved this call in time')
  } finally {
    await ipc('settings.update', { approvals: { timeoutSeconds: 120 } })
  }
})

for (const { title, tag, axeAt } of axeTiers([1280, 800, 400])) {
  test(`Always allow saves a rule that Settings → Approvals lists, removes and puts back${title}`, {
    tag,
  }, async ({ page }) => {
    scriptWrite('/notes/always.txt')
    await page.goto(host.bureau.openUrl)
    await ask(page, 'Save notes for good')
    const dialog = card(page)
    await expect(dialog).toBeVisible({ timeout: 20_000 })
    await dialog.getByRole('button', { name: 'Always allow', exact: true }).click()
    await expect(page.getByTestId('assistant-text').last()).toContainText('Finished with the notes', {
      timeout: 20_000,
    })
    try {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click()
      const section = page.getByRole('region', { name: 'Approvals' })
      const rules = section.getByRole('list', { name: 'Rules for single tools' })
      await expect(rules.getByText('files.write_text')).toBeVisible()
      await section.scrollIntoViewIfNeeded()
      for (const width of [1280, 800, 400]) {
        await page.setViewportSize({ width, height: 900 })
        for (const scheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme: scheme })
          await snapshot(section, `settings-approvals-${width}-${scheme}`)
          const violations = axeAt(width, scheme) ? await axeViolations(page) : []
          expect(violations, report(violations)).toEqual([])
        }
        expect(await horizontalOverflow(page)).toEqual([])
      }
      await page.emulateMedia({ colorScheme: 'light' })
      await section.getByRole('button', { name: 'Remove the rule for files.write_text' }).click()
      await expect(rules).toHaveCount(0)
      let stored = (await ipc('settings.get', {})) as { approvals: { rules: Record<string, string> } }
      expect(stored.approvals.rules).toEqual({ files: 'ask' })
      await section.getByRole('button', { name: 'Undo' }).click()
      await expect(rules.getByText('files.write_text')).toBeVisible()
      stored = (await ipc('settings.get', {})) as { approvals: { rules: Record<string, string> } }
      expect(stored.approvals.rules).toEqual({ files: 'ask', 'files.writeText': 'allow' })
    } finally {
      await ipc('settings.update', { approvals: { rules: { 'files.writeText': null } } })
    }
  })
}
