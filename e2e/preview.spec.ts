import { readFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import type { Locator, Page } from '@playwright/test'
import ExcelJS from 'exceljs'
import { loadSpreadsheetToolset } from '../src/main/spreadsheet'
import { createToolSession, invoke } from '../src/main/tools'
import { createWorkspace } from '../src/main/workspace'
import { fixturePath } from '../test/support/fixtures'
import { tempDirs } from '../test/support/tempDir'
import { ask, scriptedHostForSpec, waitUntilIdle } from './support/scriptedHost'
import { expect, test } from './support/test'
import { axeTiers, axeViolations, dropFiles, REVIEW_SHOTS, snapshot } from './support/ui'

// The preview pane against `bureau serve` and the scripted model: a run's receipts drawn on the workbook,
// its versions compared, documents of every kind shown, and hostile content that runs and fetches nothing.

const xlsx = readFileSync(fixturePath('core', 'sheet.xlsx'))
const host = scriptedHostForSpec({
  key: 'sk-scripted-preview-key-0000',
  env: { BUREAU_INTERACTION_MODE: 'api' },
})
const { script } = host
// axe is injected as an inline script; the hostile-content test runs without the page CSP on purpose
// (the frame's sandbox and the sanitiser must hold on their own).
test.use({ bypassCSP: true, viewport: { width: 1280, height: 860 } })

const pane = (page: Page) => page.getByRole('region', { name: /^Preview: / })

/** The A1 references a receipt range covers (`D1:D3` -> D1, D2, D3). */
function cellsOf(range: string): string[] {
  const [from = '', to = from] = range.split(':')
  const parse = (ref: string) => {
    const m = /^([A-Z]+)(\d+)$/.exec(ref)
    if (!m?.[1] || !m[2]) throw new Error(`not a cell: ${ref}`)
    return { column: [...m[1]].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0), row: Number(m[2]) }
  }
  const a = parse(from)
  const b = parse(to)
  const out: string[] = []
  for (let r = a.row; r <= b.row; r++)
    for (let c = a.column; c <= b.column; c++) out.push(`${String.fromCharCode(64 + c)}${r}`)
  return out
}

const cellsIn = async (grid: Locator, attribute: string) =>
  (
    await grid
      .locator(`[${attribute}]`)
      .evaluateAll((cells) => cells.map((c) => c.getAttribute('data-cell') ?? ''))
  ).sort()

async function runEdit(page: Page): Promise<void> {
  script(
    {
      toolCalls: [
        {
          name: 'spreadsheet_set_range',
          arguments: {
            path: '/inbox/test.xlsx',
            sheet: 'Sales',
            start: 'D1',
            values: [['Price'], [15], [15]],
          },
        },
      ],
    },
    {
      toolCalls: [
        {
          name: 'spreadsheet_set_cell_formula',
          arguments: { path: '/inbox/test.xlsx', sheet: 'Sales', cell: 'C6', formula: '=SUM(C2:C5)' },
        },
      ],
    },
    {
      toolCalls: [
        {
          name: 'done',
          arguments: { message: 'Added prices and a total.', attachments: ['/inbox/test.xlsx'] },
        },
      ],
    },
  )
  await page.goto(host.bureau.openUrl)
  await dropFiles(page, [{ name: 'test.xlsx', bytes: xlsx }])
  await ask(page, 'Add a price column and a total')
  await expect(page.getByTestId('returned-file')).toContainText('test.xlsx', { timeout: 40_000 })
  await waitUntilIdle(page)
}

/** The ranges the run's receipts name, read from the stored conversation (not from the page). */
async function receiptCells(): Promise<string[]> {
  const list = (await host.ipc('conversations.list', {})) as { id: string }[]
  const conversation = (await host.ipc('conversations.get', { id: list[0]?.id })) as {
    messages: { steps: { result?: { range?: string } }[] }[]
  }
  const ranges = conversation.messages.flatMap((m) =>
    m.steps.flatMap((s) => (s.result?.range ? [s.result.range] : [])),
  )
  expect(ranges.length).toBe(2)
  return ranges.flatMap(cellsOf).sort()
}

test('a run edits a workbook; the pane highlights exactly its receipts, compares versions and goes by keyboard', async ({
  page,
}) => {
  // A drop, a conversion and three model turns before the pane opens: minutes on a loaded 2-core machine.
  test.setTimeout(240_000)
  await runEdit(page)
  const opener = page.getByRole('button', { name: 'Show the changes in test.xlsx in the preview' }).first()
  await opener.click()
  const preview = pane(page)
  await expect(preview).toBeVisible()
  const grid = preview.getByRole('grid', { name: 'Sales (read only)' })
  await expect(grid.locator('[data-cell="A1"]')).toHaveText('Workshop')

  const expected = await receiptCells()
  expect(await cellsIn(grid, 'data-changed')).toEqual(expected)
  // Each changed cell says so to a screen reader.
  await expect(grid.locator('[data-cell="D2"]')).toHaveAccessibleDescription('Changed by the run')
  await expect(grid.locator('[data-cell="A2"]')).not.toHaveAttribute('aria-describedby')

  // The change list jumps to a change; the formula shows on selection.
  const changes = preview.getByRole('navigation', { name: 'Changes by the run' })
  await expect(changes.getByRole('button')).toHaveText([
    'D1:D3 written',
    'C6 formula',
    'Previous change',
    'Next change',
  ])
  await changes.getByRole('button', { name: 'C6 formula' }).click()
  await expect(grid).toBeFocused()
  await expect(preview.locator('.formula-bar')).toContainText('C6')
  await expect(preview.getByLabel('Cell content')).toHaveText('=SUM(C2:C5)')
  await snapshot(page, 'preview-sheet-receipts')

  // Versions: the file now and before the run; compare marks the cells that differ.
  const versions = preview.getByRole('combobox', { name: 'Version' })
  // The versions are asked for once the sheet is described: wait for them rather than read them at once.
  await expect.poll(() => versions.locator('option').count()).toBeGreaterThanOrEqual(2)
  await preview.getByRole('button', { name: 'Compare with previous' }).click()
  await expect(preview.getByRole('button', { name: 'Compare with previous' })).toHaveAttribute(
    'aria-pressed',
    'true',
  )
  await expect(grid.locator('[data-compared]').first()).toBeVisible()
  // The run saved the workbook once: the previous version is the dropped file, so compare marks the receipts' cells.
  expect(await cellsIn(grid, 'data-compared')).toEqual(expected)
  await expect(grid.locator('[data-cell="C6"]')).toHaveAccessibleDescription(
    /Changed since the previous version/,
  )
  await snapshot(page, 'preview-sheet-compare')

  // An older version shows the workbook before the run (no receipts drawn on it).
  const older = await versions.locator('option').nth(1).getAttribute('value')
  await versions.selectOption(older ?? '')
  // Before the run the sheet had three columns (A:C) and no total.
  await expect(grid).toHaveAttribute('aria-colcount', '4')
  await expect(grid.locator('[data-cell="D2"]')).toHaveCount(0)
  await expect(grid.locator('[data-changed]')).toHaveCount(0)
  await versions.selectOption('current')
  await expect(grid.locator('[data-cell="D2"]')).toHaveText('15')

  // Keyboard: sheet tabs switch with the arrows, the grid moves with them, Esc closes and focus goes back.
  const tabs = preview.getByRole('tablist', { name: 'Sheets' })
  await tabs.getByRole('tab', { name: /Sales/ }).focus()
  await page.keyboard.press('ArrowRight')
  await expect(tabs.getByRole('tab', { name: 'Staff' })).toHaveAttribute('aria-selected', 'true')
  await expect(
    preview.getByRole('grid', { name: 'Staff (read only)' }).locator('[data-cell="A2"]'),
  ).toHaveText('Ines Varga')
  await page.keyboard.press('ArrowLeft')
  await changes.getByRole('button', { name: 'Next change' }).focus()
  await page.keyboard.press('Enter')
  await expect(grid).toBeFocused()
  await page.keyboard.press('ArrowDown')
  await expect(preview.locator('.formula-ref')).not.toHaveText('D1')
  await page.keyboard.press('Escape')
  await expect(preview).toHaveCount(0)
  await expect(opener).toBeFocused()
})

test('screens at 400, 800, 1280 and 1920 px in both themes are axe clean', { tag: '@soak' }, async ({
  page,
}) => {
  test.setTimeout(300_000)
  await runEdit(page)
  await page.getByTestId('returned-file').getByRole('button', { name: 'Preview test.xlsx' }).click()
  const preview = pane(page)
  await expect(preview.getByRole('grid')).toBeVisible()
  for (const width of [400, 800, 1280, 1920]) {
    await page.setViewportSize({ width, height: width < 800 ? 800 : 900 })
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      await expect(preview.locator('[data-cell="D2"]')).toBeVisible()
      const box = await preview.boundingBox()
      // Narrow windows: a full-screen sheet; wide ones: a split beside the chat.
      if (width < 900) expect(box?.width).toBe(width)
      else {
        expect(box?.width).toBeLessThan(width * 0.7)
        await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible()
      }
      const violations = await axeViolations(page)
      expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
        [],
      )
      if (REVIEW_SHOTS) await snapshot(page, `preview-${width}-${scheme}`)
    }
  }
})

/** A workbook with a bar, a line, a pie and a scatter chart, written by the spreadsheet toolset's add_chart. */
async function chartWorkbook(): Promise<Uint8Array> {
  const dirs = tempDirs('bureau-e2e-charts-')
  const workspace = createWorkspace({ root: await dirs.make() })
  try {
    const book = new ExcelJS.Workbook()
    book.addWorksheet('Data').addRows([
      ['Month', 'Sales', 'Costs'],
      ['Jan', 120, 80],
      ['Feb', 150, 90],
      ['Mar', 90, 70],
      ['Apr', 170, 95],
    ])
    await workspace.writeFile('/charts.xlsx', new Uint8Array(await book.xlsx.writeBuffer()))
    const session = createToolSession({
      toolsets: [await loadSpreadsheetToolset()],
      workspace: () => workspace,
    })
    try {
      for (const [type, anchor] of [
        ['column', 'E1'],
        ['line', 'E17'],
        ['pie', 'N1'],
        ['scatter', 'N17'],
      ] as const) {
        const added = await invoke(session, 'spreadsheet.add_chart', {
          path: '/charts.xlsx',
          sheet: 'Data',
          type,
          data_range: type === 'scatter' ? 'B1:C5' : 'A1:C5',
          title: `Sales ${type}`,
          anchor,
        })
        if (!added.ok) throw new Error(added.error)
      }
    } finally {
      await session.dispose()
    }
    return new Uint8Array(await workspace.readFile('/charts.xlsx'))
  } finally {
    await workspace.close()
    await dirs.cleanup()
  }
}

for (const { title, tag, axeAt } of axeTiers([1280, 800, 400])) {
  test(`charts are drawn from the workbook: named images with their data, at 400, 800 and 1280 px in both themes${title}`, {
    tag,
  }, async ({ page }) => {
    test.setTimeout(240_000)
    await writeFile(join(host.bureau.workspace, 'charts.xlsx'), await chartWorkbook())
    await page.goto(host.bureau.openUrl)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Workspace' }).click()
    await page.getByRole('button', { name: 'Preview charts.xlsx' }).click()
    const preview = pane(page)
    const charts = preview.getByRole('region', { name: 'Charts on this sheet' })
    await expect(charts.getByRole('img')).toHaveCount(4)
    await expect(
      charts.getByRole('img', { name: /^Sales column: column chart of Sales, Costs at E1$/ }),
    ).toBeVisible()
    const column = charts.getByRole('figure', { name: /Sales column/ })
    // One bar per value: 4 months × 2 series, and no script anywhere in the drawings.
    expect(await column.locator('svg rect').count()).toBe(8)
    expect(await charts.locator('script, foreignObject').count()).toBe(0)
    expect(
      await charts
        .getByRole('figure', { name: /Sales pie/ })
        .locator('svg path')
        .count(),
    ).toBe(4)
    expect(
      await charts
        .getByRole('figure', { name: /Sales scatter/ })
        .locator('svg circle')
        .count(),
    ).toBe(4)
    await column.getByText('Data of “Sales column”').click()
    await expect(column.getByRole('row', { name: /Feb/ }).getByRole('cell')).toHaveText(['150', '90'])
    for (const width of [400, 800, 1280]) {
      await page.setViewportSize({ width, height: 900 })
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme })
        await charts.getByRole('img').first().scrollIntoViewIfNeeded()
        const violations = axeAt(width, scheme) ? await axeViolations(page) : []
        expect(
          violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
        ).toEqual([])
        if (REVIEW_SHOTS) await snapshot(page, `preview-chart-${width}-${scheme}`)
      }
    }
  })
}

test('a 200-column sheet draws only the columns in view (and the frozen one), by mouse, scroll and keyboard', async ({
  page,
}) => {
  const letters = (index: number) => {
    let name = ''
    for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
      name = String.fromCharCode(65 + ((n - 1) % 26)) + name
    return name
  }
  const book = new ExcelJS.Workbook()
  const wide = book.addWorksheet('Wide', { views: [{ state: 'frozen', xSplit: 1, ySplit: 1 }] })
  // Each cell holds its own reference, so the DOM can be checked against the sheet.
  for (let r = 1; r <= 40; r++) wide.addRow(Array.from({ length: 200 }, (_, c) => `${letters(c)}${r}`))
  await writeFile(join(host.bureau.workspace, 'wide.xlsx'), new Uint8Array(await book.xlsx.writeBuffer()))
  await page.goto(host.bureau.openUrl)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Workspace' }).click()
  await page.getByRole('button', { name: 'Preview wide.xlsx' }).click()
  const grid = pane(page).getByRole('grid', { name: 'Wide (read only)' })
  await expect(grid.locator('[data-cell="B2"]')).toHaveText('B2')
  await expect(grid).toHaveAttribute('aria-colcount', '201')

  const drawn = () =>
    grid
      .locator('[role="row"][aria-rowindex="3"] [role="gridcell"]')
      .evaluateAll((cells) =>
        cells.map((c) => [c.getAttribute('data-cell'), c.getAttribute('aria-colindex')]),
      )
  const columnOf = (ref: string | null | undefined) =>
    [...(/^[A-Z]+/.exec(ref ?? '')?.[0] ?? '')].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0)
  const before = await drawn()
  // A row of the 200 holds the columns in view and a few beyond, each at its own aria-colindex.
  expect(before.length).toBeGreaterThan(5)
  expect(before.length).toBeLessThan(40)
  for (const [ref, index] of before) expect(Number(index)).toBe(columnOf(ref) + 1)
  await expect(grid.locator('[data-cell="GR2"]')).toHaveCount(0)

  // Scrolled to the far right: the last columns come in, the frozen column A stays, B is gone.
  await grid.evaluate((el) => {
    el.scrollLeft = el.scrollWidth
  })
  await expect(grid.locator('[data-cell="GR2"]')).toHaveText('GR2')
  await expect(grid.locator('[data-cell="A2"]')).toBeVisible()
  await expect(grid.locator('[data-cell="B2"]')).toHaveCount(0)
  const after = await drawn()
  expect(after.length).toBeLessThan(40)
  for (const [ref, index] of after) expect(Number(index)).toBe(columnOf(ref) + 1)

  // Mouse and keyboard: a click selects a cell, Home goes back to column A and End to the last one.
  await grid.locator('[data-cell="GQ4"]').click()
  await expect(pane(page).locator('.formula-ref')).toHaveText('GQ4')
  await page.keyboard.press('Home')
  await expect(pane(page).locator('.formula-ref')).toHaveText('A4')
  await expect(grid.locator('[data-cell="B4"]')).toBeVisible()
  await page.keyboard.press('End')
  await expect(pane(page).locator('.formula-ref')).toHaveText('GR4')
  await expect(grid.locator('[data-cell="GR4"]')).toBeVisible()
  await expect(grid).toHaveAttribute('aria-activedescendant', /GR4$/)
  await snapshot(page, 'preview-wide-sheet')
})

test('PDF, Word, picture, Markdown, mail and calendar previews from the Workspace page', async ({ page }) => {
  test.setTimeout(180_000)
  const ws = host.bureau.workspace
  await writeFile(join(ws, 'report.pdf'), readFileSync(fixturePath('core', 'report.pdf')))
  await writeFile(join(ws, 'report.docx'), readFileSync(fixturePath('core', 'report.docx')))
  await writeFile(join(ws, 'chart.png'), readFileSync(fixturePath('documents', 'chart.png')))
  await writeFile(
    join(ws, 'notes.md'),
    '# Quarterly notes\n\n- first point\n- second point\n\n```ts\nconst x = 1\n```\n',
  )
  await writeFile(join(ws, 'invoice.eml'), readFileSync(fixturePath('email', '01-multipart-invoice.eml')))
  await writeFile(join(ws, 'team.ics'), readFileSync(fixturePath('calendar', 'google.ics')))
  await page.goto(`${host.bureau.openUrl}`)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Workspace' }).click()
  const preview = pane(page)
  const show = async (name: string) => {
    await page.getByRole('button', { name: `Preview ${name}` }).click()
    await expect(preview.getByRole('heading', { name: `Preview: ${name}` })).toBeVisible()
  }

  await show('report.pdf')
  const firstPage = preview.getByRole('img', { name: 'Page 1 of report.pdf' })
  await expect(firstPage).toBeVisible({ timeout: 30_000 })
  expect(await firstPage.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(200)
  await snapshot(page, 'preview-pdf')

  await show('report.docx')
  await expect(preview.frameLocator('iframe[title="Content of report.docx"]').locator('body')).toContainText(
    'Harbour Street',
  )
  await snapshot(page, 'preview-docx')

  await show('chart.png')
  const picture = preview.getByRole('img', { name: 'chart.png' })
  await expect(picture).toBeVisible()
  expect(await picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(10)

  await show('notes.md')
  await expect(preview.getByRole('heading', { name: 'Quarterly notes' })).toBeVisible()
  await expect(preview.getByRole('listitem')).toHaveText(['first point', 'second point'])

  await show('invoice.eml')
  const mail = preview.getByRole('article')
  await expect(mail.getByText('Subject', { exact: true })).toBeVisible()
  await expect(
    mail.getByRole('list', { name: 'Mail attachments' }).getByRole('listitem').first(),
  ).toBeVisible()
  await snapshot(page, 'preview-mail')

  await show('team.ics')
  await expect(
    preview.getByRole('list', { name: 'Events in team.ics' }).getByRole('listitem').first(),
  ).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(preview).toHaveCount(0)
})

test('hostile HTML, SVG and mail run no script and fetch nothing', async ({ page }) => {
  const hits: string[] = []
  const tripwire: Server = createServer((request, response) => {
    hits.push(request.url ?? '')
    response.end('no')
  })
  await new Promise<void>((resolve) => tripwire.listen(0, '127.0.0.1', resolve))
  const remote = `http://127.0.0.1:${(tripwire.address() as AddressInfo).port}`
  try {
    const payload = [
      `<script>parent.__pwned = 'script'; fetch('${remote}/script')</script>`,
      `<img src="x" onerror="parent.__pwned = 'onerror'; fetch('${remote}/onerror')">`,
      `<img src="${remote}/remote-picture.png" alt="tracker">`,
      `<svg onload="parent.__pwned = 'svg'"><script>parent.__pwned = 'svg-script'</script></svg>`,
      `<iframe srcdoc="<script>parent.parent.__pwned = 'frame'</script>"></iframe>`,
      `<a href="javascript:parent.__pwned = 'link'">click</a>`,
      `<div style="background: url(${remote}/css.png)">styled</div>`,
      `<link rel="stylesheet" href="${remote}/style.css"><p>Visible text</p>`,
    ].join('\n')
    const ws = host.bureau.workspace
    await writeFile(join(ws, 'hostile.html'), `<!doctype html><html><body>${payload}</body></html>`)
    await writeFile(
      join(ws, 'hostile.svg'),
      `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" onload="parent.__pwned='svg-file'"><script>parent.__pwned='svg-file-script'</script><image href="${remote}/svg-image.png" width="10" height="10"/><rect width="40" height="40" fill="red"/></svg>`,
    )
    await writeFile(
      join(ws, 'hostile.eml'),
      [
        'From: Mallory <mallory@example.com>',
        'To: you@example.com',
        'Subject: Totally normal invoice',
        'MIME-Version: 1.0',
        'Content-Type: text/html; charset=utf-8',
        '',
        payload,
      ].join('\r\n'),
    )
    await page.goto(host.bureau.openUrl)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Workspace' }).click()
    const preview = pane(page)
    for (const name of ['hostile.html', 'hostile.svg', 'hostile.eml']) {
      await page.getByRole('button', { name: `Preview ${name}` }).click()
      await expect(preview.getByRole('heading', { name: `Preview: ${name}` })).toBeVisible()
    }
    await expect(preview.getByRole('note').filter({ hasText: 'remote' })).toBeVisible()
    await expect(preview.frameLocator('iframe[title="Mail body"]').locator('body')).toContainText(
      'Visible text',
    )
    // Time for any script, load handler or request to have happened.
    await page.waitForTimeout(1500)
    expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined()
    expect(hits).toEqual([])
  } finally {
    await new Promise((resolve) => tripwire.close(resolve))
  }
})
