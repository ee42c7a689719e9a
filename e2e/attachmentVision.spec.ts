import type { Page } from '@playwright/test'
import { type ChatRequestInfo, type ScriptedLlm, startScriptedLlm } from '../test/support/scriptedLlm'
import { scriptedProviderEnv } from '../test/support/scriptedProviderEnv'
import { type BureauServer, startBureau } from './support/bureauServer'
import { expect, test } from './support/test'
import { axeViolations, dropFiles, snapshot } from './support/ui'

// Pictures and the setting `attachments.vision` (issues 8 and 10) against `bureau serve` and the scripted model:
// a provider without vision reads the picture by OCR and the chip says why; one with vision gets the picture.

const IMAGE_TEXT = 'INVOICE 4711'
const TRANSCRIPTION = 'Transcribed by the vision model: a yellow invoice numbered 4711.'
const OCR_WARNING =
  'DeepSeek (scripted-model) does not read images (its supportsVision is off); images and scanned pages were read with OCR instead'

let llm: ScriptedLlm
test.beforeAll(async () => {
  llm = await startScriptedLlm({ models: ['scripted-model'] })
})
test.afterAll(async () => {
  await llm?.close()
})
test.beforeEach(() => {
  llm.reset()
})
// Each test starts its own host (the provider comes from its environment); a hook stops it even after a timeout.
let bureau: BureauServer | undefined
test.afterEach(async () => {
  await bureau?.stop()
  bureau = undefined
})
// axe is injected as an inline script, which the app's CSP rightly forbids.
test.use({ bypassCSP: true, viewport: { width: 1280, height: 860 } })

/** A bureau host whose active provider is the preset `provider` pointed at the scripted server. */
async function startWith(provider: 'deepseek' | 'openai'): Promise<BureauServer> {
  bureau = await startBureau(
    [],
    scriptedProviderEnv(llm, 'sk-scripted-e2e-key-0000', {
      BUREAU_PROVIDER: provider,
      BUREAU_INTERACTION_MODE: 'api',
    }),
  )
  return bureau
}

/** Black text on white rendered by the test's own browser, so OCR has something clear to read. */
async function textPng(page: Page): Promise<Buffer> {
  await page.setContent(
    `<p style="display:inline-block;margin:0;padding:24px 40px;background:#fff;color:#000;font:bold 48px/1.3 sans-serif">${IMAGE_TEXT}</p>`,
  )
  return page.locator('p').screenshot()
}

/** The data URIs of the `image_url` parts of an OpenAI chat request. */
function imageUrls(info: { messages: unknown[] }): string[] {
  const urls: string[] = []
  for (const message of info.messages as Array<{ content?: unknown }>) {
    if (!Array.isArray(message.content)) continue
    for (const part of message.content as Array<{ type?: string; image_url?: { url?: string } }>)
      if (part.type === 'image_url' && part.image_url?.url) urls.push(part.image_url.url)
  }
  return urls
}

/** Chooses "The provider's vision model, when it supports images" in Settings → Attachments and saves it. */
async function allowVision(page: Page, bureau: BureauServer) {
  await page.goto(bureau.openUrl)
  const nav = page.getByRole('navigation', { name: 'Main' })
  await nav.getByRole('button', { name: 'Settings' }).click()
  const section = page.getByRole('region', { name: 'Attachments' })
  const choice = section.getByRole('combobox', { name: 'Images and scanned pages' })
  await expect(choice).toHaveValue('off')
  await choice.selectOption('when-supported')
  await expect(section).toContainText('The pictures themselves are sent to the active provider')
  await section.getByRole('button', { name: 'Save' }).click()
  await expect(section.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible()
  const saved = await page.request.post(`${bureau.url}/ipc/settings.get`, {
    headers: { authorization: `Bearer ${bureau.token}` },
    data: {},
  })
  expect(((await saved.json()) as { attachments: { vision: string } }).attachments.vision).toBe(
    'when-supported',
  )
  await nav.getByRole('button', { name: 'Chat' }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Chat')
}

async function ask(page: Page, text: string) {
  const box = page.getByRole('textbox', { name: 'Message' })
  await box.fill(text)
  await box.press('Enter')
}

const sentChips = (page: Page) =>
  page.getByRole('list', { name: 'Attached files' }).getByTestId('attachment-chip')

test('a provider without vision: the picture is read by OCR, the chip says why, the chat answers', {
  tag: '@soak',
}, async ({ page }) => {
  const png = await textPng(page)
  const host = await startWith('deepseek')
  const chatRequests: ChatRequestInfo[] = []
  llm.setResponder((info) => {
    chatRequests.push(info)
    return { text: 'The picture shows invoice 4711.' }
  })
  await allowVision(page, host)
  await dropFiles(page, [{ name: 'invoice.png', bytes: png, type: 'image/png' }])
  await ask(page, 'What does the picture say?')

  const chip = sentChips(page)
  await expect(chip).toHaveCount(1)
  await expect(chip).toHaveAttribute('data-status', 'converted', { timeout: 30_000 })
  const warning = chip.locator('.chip-warning')
  await expect(warning).toBeVisible()
  await expect(warning).toHaveText(`Warning: ${OCR_WARNING}`)
  // What assistive technology gets: the chip is a list item of "Attached files" that carries the
  // warning as text, with no alert (the chat went on).
  await expect(
    page.getByRole('list', { name: 'Attached files' }).getByRole('listitem').filter({ hasText: OCR_WARNING }),
  ).toHaveCount(1)
  await expect(chip).toMatchAriaSnapshot(`
      - listitem:
        - img
        - text: /^invoice\\.png/
        - status: /^invoice\\.png. \\d+ chars$/
        - text: /DeepSeek \\(scripted-model\\) does not read images .* read with OCR instead$/
    `)
  await expect(chip.getByRole('alert')).toHaveCount(0)

  await expect(page.getByTestId('assistant-text').last()).toHaveText('The picture shows invoice 4711.', {
    timeout: 30_000,
  })
  // The model got the OCR text, never the picture itself.
  expect(llm.requests.every((r) => !r.rawBody.includes('image_url'))).toBe(true)
  expect(chatRequests).toHaveLength(1)
  const sent = chatRequests[0]?.lastUserText ?? ''
  expect(sent).toContain('Text recognised in the image (OCR)')
  expect(sent).toContain('4711')
  expect(sent).toMatch(/INVOICE/i)
  await snapshot(page, 'chat-picture-ocr-warning')

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    const violations = await axeViolations(page)
    expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
  }
})

test('a provider with vision: the scripted server gets the picture as image_url and no warning shows', async ({
  page,
}) => {
  const png = await textPng(page)
  const host = await startWith('openai')
  const transcriptions: ChatRequestInfo[] = []
  const chats: ChatRequestInfo[] = []
  llm.setResponder((info) => {
    if (imageUrls(info).length > 0) {
      transcriptions.push(info)
      return { text: TRANSCRIPTION }
    }
    chats.push(info)
    return { text: 'It is invoice 4711, in yellow.' }
  })
  await allowVision(page, host)
  await dropFiles(page, [{ name: 'invoice.png', bytes: png, type: 'image/png' }])
  await ask(page, 'What does the picture say?')

  await expect(page.getByTestId('assistant-text').last()).toHaveText('It is invoice 4711, in yellow.', {
    timeout: 30_000,
  })
  expect(transcriptions).toHaveLength(1)
  expect(imageUrls(transcriptions[0] as ChatRequestInfo)).toEqual([
    `data:image/png;base64,${png.toString('base64')}`,
  ])
  // The chat itself gets the model's transcription, not OCR text.
  expect(chats).toHaveLength(1)
  const sent = chats[0]?.lastUserText ?? ''
  expect(sent).toContain(TRANSCRIPTION)
  expect(sent).not.toContain('(OCR)')

  const chip = sentChips(page)
  await expect(chip).toHaveCount(1)
  await expect(chip).toHaveAttribute('data-status', 'converted')
  await expect(chip).toContainText('invoice.png')
  await expect(chip.locator('.chip-warning')).toHaveCount(0)
  await expect(chip).not.toContainText('OCR')
  await snapshot(page, 'chat-picture-vision')
})
