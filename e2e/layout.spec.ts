import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { fixturePath } from '../test/support/fixtures'
import type { ScriptedLlm } from '../test/support/scriptedLlm'
import type { BureauServer } from './support/bureauServer'
import { horizontalOverflow } from './support/overflow'
import { expect, test } from './support/test'
import { axeViolations, dropFiles, snapshot } from './support/ui'

// The layout fits any window: side columns collapse below ~1000 px, nothing sticks out sideways.
const docx = readFileSync(fixturePath('core', 'report.docx'))
const LONG_FILE = 'quarterly-financial-summary-for-the-board-meeting-of-december-2025-final-version.md'
const LONG_ATTACHMENT = 'Annual_report_of_the_regional_office_with_all_appendices_and_signatures.docx'
const ANSWER = [
  'The summary is written. **Highlights**:',
  '',
  '| Quarter | Revenue | Costs | Margin | Comment from the finance department |',
  '| --- | ---: | ---: | ---: | --- |',
  '| Q1 | 1,204,000 | 980,000 | 18.6 % | A slow start after the holidays, as every year |',
  '| Q2 | 1,410,000 | 1,010,000 | 28.4 % | The new product line sold better than planned |',
  '',
  '```python',
  'summary = load_workbook("reports/quarterly-financial-summary.xlsx").active["A1"].value  # a long line',
  '```',
].join('\n')

let llm: ScriptedLlm
let bureau: BureauServer
test.beforeAll(async ({ sharedHost }) => {
  await sharedHost.reset()
  ;({ llm, bureau } = sharedHost)
  llm.setResponder(() => ({ text: 'OK' }))
})
test.use({ bypassCSP: true })

const WIDTHS = [2560, 1280, 800, 400, 360] as const
const SHOT_WIDTHS: readonly number[] = [1280, 800, 400]
/** `npm test` runs axe at a wide and a narrow width; the soak tier (tag @soak) at every width. */
const TIERS = [
  { title: '', axeWidths: [1280, 400] as readonly number[], tag: [] as string[] },
  { title: ' (axe at every width)', axeWidths: WIDTHS as readonly number[], tag: ['@soak'] },
]

/** At each width and in both themes: no overflow, axe passes where asked, a screenshot for review. */
async function checkEveryWidth(
  page: Page,
  name: string,
  visible: (page: Page) => Promise<void>,
  axeWidths: readonly number[],
) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 860 })
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      // Waits for the page's key parts first, so the overflow check sees them.
      await page.getByRole('heading', { level: 1 }).waitFor({ state: 'attached' })
      expect(await horizontalOverflow(page), `${name} at ${width} px, ${scheme}`).toEqual([])
      await visible(page)
      if (SHOT_WIDTHS.includes(width)) await snapshot(page, `layout-${name}-${width}-${scheme}`)
      if (axeWidths.includes(width))
        expect(await axeViolations(page), `${name} at ${width} px, ${scheme}`).toEqual([])
    }
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

async function inViewport(page: Page, name: string, locator: ReturnType<Page['locator']>) {
  await expect(locator, name).toBeVisible()
  const box = await locator.boundingBox()
  const width = page.viewportSize()?.width ?? 0
  expect(box && box.x >= 0 && box.x + box.width <= width, `${name} inside the window`).toBe(true)
}

async function answerWithStepsAndFiles(page: Page) {
  llm.setResponder((info) => {
    // Requests without tools (the connection test, a title) get a plain answer.
    if (info.tools.length === 0) return { text: 'OK' }
    // API mode discloses toolsets on demand: open files first, then write, then finish.
    if (!JSON.stringify(info.tools).includes('"files_write_text"'))
      return {
        text: 'Writing the summary. ',
        toolCalls: [{ name: 'open_toolset', arguments: { toolset: 'files' } }],
      }
    if (!JSON.stringify(info.messages).includes('files_write_text'))
      return {
        toolCalls: [
          { name: 'files_write_text', arguments: { path: `/reports/${LONG_FILE}`, content: '# Summary\n' } },
        ],
      }
    return {
      toolCalls: [{ name: 'done', arguments: { message: ANSWER, attachments: [`/reports/${LONG_FILE}`] } }],
    }
  })
  await page.goto(bureau.openUrl)
  await dropFiles(page, [{ name: LONG_ATTACHMENT, bytes: docx }])
  const box = page.getByRole('textbox', { name: 'Message' })
  await box.fill('Write the quarterly summary for the board into the reports folder, with a table')
  await box.press('Enter')
  await expect(page.getByTestId('returned-file')).toBeVisible({ timeout: 30_000 })
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible({ timeout: 20_000 })
  await page.locator('details.timeline').last().locator('summary').first().click()
  await page.getByTestId('agent-step').first().locator('summary').click()
  llm.setResponder(() => ({ text: 'OK' }))
}

for (const tier of TIERS) {
  test(`chat with steps, a long attachment, a returned file, a table and code fits 360–2560 px${tier.title}`, {
    tag: tier.tag,
  }, async ({ page }) => {
    test.setTimeout(240_000)
    await answerWithStepsAndFiles(page)
    await checkEveryWidth(
      page,
      'chat',
      async (p) => {
        await inViewport(p, 'message box', p.getByRole('textbox', { name: 'Message' }))
        await inViewport(p, 'Send', p.getByRole('button', { name: 'Send' }))
        await inViewport(
          p,
          'Settings in the main navigation',
          p.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }),
        )
        const returned = p.getByTestId('returned-file')
        await returned.scrollIntoViewIfNeeded()
        await inViewport(p, 'returned file', returned)
        // Cut with an ellipsis when narrow: the full name is the tooltip.
        await expect(returned.locator('.chip-name')).toHaveAttribute('title', new RegExp(LONG_FILE))
        const width = (await p.getByRole('textbox', { name: 'Message' }).boundingBox())?.width ?? 0
        expect(width, 'the message box keeps a usable width').toBeGreaterThan(150)
      },
      tier.axeWidths,
    )
  })
}

test('below 1000 px the conversations are a drawer opened from the chat, closed by Esc', async ({ page }) => {
  await page.goto(bureau.openUrl)
  await page.setViewportSize({ width: 1280, height: 860 })
  const list = page.getByRole('complementary', { name: 'Conversations' })
  await expect(list).toBeVisible()
  await expect(page.getByRole('button', { name: 'Show conversations' })).toBeHidden()
  for (const width of [800, 400]) {
    await page.setViewportSize({ width, height: 860 })
    await expect(list).toBeHidden()
    const toggle = page.getByRole('button', { name: 'Show conversations' })
    await toggle.click()
    await expect(list).toBeVisible()
    await expect(list.getByRole('button', { name: 'New chat' })).toBeFocused()
    await inViewport(
      page,
      'conversation search',
      list.getByRole('searchbox', { name: 'Search conversations' }),
    )
    expect(await horizontalOverflow(page)).toEqual([])
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      await snapshot(page, `layout-drawer-${width}-${scheme}`)
      expect(await axeViolations(page)).toEqual([])
    }
    await page.emulateMedia({ colorScheme: 'light' })
    await page.keyboard.press('Escape')
    await expect(list).toBeHidden()
    await expect(toggle).toBeFocused()
  }
})

for (const tier of TIERS)
  for (const name of ['Settings', 'Workspace'] as const) {
    test(`${name} fits 360–2560 px${tier.title}`, { tag: tier.tag }, async ({ page }) => {
      test.setTimeout(180_000)
      await page.goto(bureau.openUrl)
      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name }).click()
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(name)
      await checkEveryWidth(
        page,
        name.toLowerCase(),
        async (p) => {
          await inViewport(p, 'page heading', p.getByRole('heading', { level: 1 }))
          if (name === 'Settings') {
            const provider = p.getByRole('region', { name: 'Model provider' })
            await inViewport(p, 'Model provider section', provider)
            await inViewport(p, 'Test connection', provider.getByRole('button', { name: /^Test / }))
          }
        },
        tier.axeWidths,
      )
    })
  }
