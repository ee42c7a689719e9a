import { readFileSync } from 'node:fs'
import { fixturePath } from '../test/support/fixtures'
import type { BureauServer } from './support/bureauServer'
import { expect, test } from './support/test'
import { dropFiles, snapshot } from './support/ui'

const docx = readFileSync(fixturePath('core', 'report.docx'))

let bureau: BureauServer
test.beforeAll(async ({ sharedHost }) => {
  await sharedHost.reset()
  bureau = sharedHost.bureau
})
test.use({ viewport: { width: 1280, height: 800 } })

test('the empty chat offers three example requests that fill the composer', async ({ page }) => {
  await page.goto(bureau.openUrl)
  const examples = page.getByRole('list', { name: 'Example requests' }).getByRole('button')
  await expect(examples).toHaveCount(3)
  await snapshot(page, 'chat-empty')
  await examples.nth(1).click()
  await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue(/Total column/)
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeFocused()
})

test('files dropped anywhere on the chat become chips; limits are explained, nothing dropped silently', async ({
  page,
}) => {
  await page.goto(bureau.openUrl)
  await dropFiles(
    page,
    [
      { name: 'test.docx', bytes: docx },
      { name: 'empty.csv', bytes: new Uint8Array() },
    ],
    { screenshot: 'chat-drop-zone' },
  )
  await expect(page.getByTestId('drop-overlay')).toBeHidden()
  const chips = page.getByRole('list', { name: 'Files to send' }).getByTestId('attachment-chip')
  await expect(chips).toHaveCount(1)
  await expect(chips.first()).toContainText('test.docx')
  await expect(page.getByRole('alert')).toContainText('empty.csv: the file is empty')
  await page.getByRole('textbox', { name: 'Message' }).fill('Summarize this document')
  await snapshot(page, 'chat-composer-chips')
  await page.getByRole('button', { name: 'Remove test.docx' }).click()
  await expect(chips).toHaveCount(0)
})

test('the composer keeps Shift+Enter as a new line', async ({ page }) => {
  await page.goto(bureau.openUrl)
  const box = page.getByRole('textbox', { name: 'Message' })
  await box.click()
  await page.keyboard.type('line one')
  await page.keyboard.press('Shift+Enter')
  await page.keyboard.type('line two')
  await expect(box).toHaveValue('line one\nline two')
})
