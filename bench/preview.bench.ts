import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { strToU8, zipSync } from 'fflate'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import { chromium } from 'playwright-core'
import { startBureau } from '../e2e/support/bureauServer'
import type { BenchRow } from './types'

// The preview pane in the built app (`bureau serve` + Debian Chromium): time to first paint of a
// 50,000 × 12 workbook and of a 100-page PDF after "Preview" is clicked, the longest main-thread task
// while the grid scrolls from top to bottom, and the renderer's JavaScript heap with both opened.

const CHROMIUM = process.env.BUREAU_CHROMIUM ?? '/usr/bin/chromium'
const ROWS = 50_000
const COLUMNS = 12

/** A 50,000 × 12 workbook written directly as OOXML (exceljs takes longer to write it than the bench runs). */
export function bigWorkbook(): Uint8Array {
  const words = ['North', 'South', 'East', 'West', 'Centre']
  const strings = [
    'Id',
    'Region',
    'Product',
    'Qty',
    'Price',
    'Total',
    'Date',
    'F',
    'G',
    'H',
    'I',
    'J',
    ...words,
  ]
  const header = Array.from(
    { length: COLUMNS },
    (_, c) => `<c r="${String.fromCharCode(65 + c)}1" t="s" s="1"><v>${c}</v></c>`,
  ).join('')
  const rows: string[] = [`<row r="1">${header}</row>`]
  for (let r = 2; r <= ROWS + 1; r++) {
    const cells: string[] = []
    for (let c = 0; c < COLUMNS; c++) {
      const ref = `${String.fromCharCode(65 + c)}${r}`
      if (c === 1) cells.push(`<c r="${ref}" t="s"><v>${12 + (r % words.length)}</v></c>`)
      else if (c === 4) cells.push(`<c r="${ref}" s="2"><v>${(r % 97) + 0.5}</v></c>`)
      else if (c === 5)
        cells.push(`<c r="${ref}" s="2"><f>D${r}*E${r}</f><v>${(r % 13) * ((r % 97) + 0.5)}</v></c>`)
      else if (c === 6) cells.push(`<c r="${ref}" s="3"><v>${45000 + (r % 365)}</v></c>`)
      else cells.push(`<c r="${ref}"><v>${r * (c + 1)}</v></c>`)
    }
    rows.push(`<row r="${r}">${cells.join('')}</row>`)
  }
  const sheet = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><dimension ref="A1:L${ROWS + 1}"/><sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews><cols><col min="2" max="3" width="14" customWidth="1"/></cols><sheetData>${rows.join('')}</sheetData></worksheet>`
  const shared = `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${strings.length}" uniqueCount="${strings.length}">${strings.map((s) => `<si><t>${s}</t></si>`).join('')}</sst>`
  const styles = `<?xml version="1.0" encoding="UTF-8"?><styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy-mm-dd"/></numFmts><fonts count="2"><font><sz val="11"/></font><font><b/><sz val="11"/></font></fonts><fills count="3"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill><fill><patternFill patternType="solid"><fgColor rgb="FFDDEBF7"/></patternFill></fill></fills><borders count="1"><border/></borders><cellStyleXfs count="1"><xf/></cellStyleXfs><cellXfs count="4"><xf/><xf fontId="1" fillId="2" applyFont="1" applyFill="1"/><xf numFmtId="4" applyNumberFormat="1"/><xf numFmtId="164" applyNumberFormat="1"/></cellXfs></styleSheet>`
  const ns = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
  return zipSync({
    '[Content_Types].xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`,
    ),
    '_rels/.rels': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${ns}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
    'xl/workbook.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${ns}"><sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    'xl/_rels/workbook.xml.rels': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${ns}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${ns}/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rId3" Type="${ns}/styles" Target="styles.xml"/></Relationships>`,
    ),
    'xl/worksheets/sheet1.xml': strToU8(sheet),
    'xl/sharedStrings.xml': strToU8(shared),
    'xl/styles.xml': strToU8(styles),
  })
}

async function hundredPagePdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create()
  const font = await pdf.embedFont(StandardFonts.Helvetica)
  for (let p = 1; p <= 100; p++) {
    const page = pdf.addPage([612, 792])
    page.drawText(`Page ${p}`, { x: 72, y: 720, size: 24, font })
    for (let line = 0; line < 40; line++)
      page.drawText(`Line ${line + 1} of page ${p}: the quick brown fox jumps over the lazy dog.`, {
        x: 72,
        y: 680 - line * 15,
        size: 10,
        font,
      })
  }
  return pdf.save()
}

export default async function previewBench(): Promise<BenchRow[]> {
  const bureau = await startBureau()
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  })
  try {
    await writeFile(join(bureau.workspace, 'big.xlsx'), bigWorkbook())
    await writeFile(join(bureau.workspace, 'big.pdf'), await hundredPagePdf())
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } })
    await page.addInitScript(() => {
      const longTasks: number[] = []
      ;(window as unknown as { longTasks: number[] }).longTasks = longTasks
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) longTasks.push(entry.duration)
      }).observe({ type: 'longtask', buffered: true })
    })
    await page.goto(bureau.openUrl)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Workspace' }).click()

    // First paint, timed in the page: from the click event to the first frame that shows B3's value
    // (Playwright's own waiting polls at growing intervals and would add up to half a second).
    const opener = page.getByRole('button', { name: 'Preview big.xlsx' })
    await opener.waitFor()
    const painted = page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          addEventListener(
            'click',
            async () => {
              const clicked = performance.now()
              for (;;) {
                await new Promise((frame) => requestAnimationFrame(frame))
                if (document.querySelector('[data-cell="B3"]')?.textContent?.trim()) break
              }
              resolve(performance.now() - clicked)
            },
            { capture: true, once: true },
          )
        }),
    )
    await opener.click()
    const sheetPaint = await painted
    const gridNodes = await page.evaluate(
      () => document.querySelector('[role="grid"]')?.querySelectorAll('*').length ?? 0,
    )

    // Scroll the grid to the bottom in steps, one per frame, and keep the longest main-thread task.
    await page.evaluate(() => ((window as unknown as { longTasks: number[] }).longTasks.length = 0))
    await page.evaluate(async () => {
      const grid = document.querySelector('[role="grid"]') as HTMLElement
      const step = grid.scrollHeight / 300
      for (let i = 0; i < 300; i++) {
        grid.scrollTop += step
        await new Promise((resolve) => requestAnimationFrame(resolve))
      }
    })
    await page
      .locator(`[data-cell="A${ROWS + 1}"]`)
      .filter({ hasText: /\S/ })
      .waitFor({ timeout: 60_000 })
    const tasks = await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks)
    const longest = Math.max(0, ...tasks)

    const started = performance.now()
    await page.getByRole('button', { name: 'Preview big.pdf' }).click()
    await page
      .getByRole('img', { name: 'Page 1 of big.pdf' })
      .evaluate(
        (img: HTMLImageElement) =>
          img.complete ? undefined : new Promise((resolve) => img.addEventListener('load', resolve)),
        undefined,
        { timeout: 120_000 },
      )
    const pdfPaint = performance.now() - started

    const cdp = await page.context().newCDPSession(page)
    await cdp.send('HeapProfiler.collectGarbage')
    await cdp.send('Performance.enable')
    const { metrics } = await cdp.send('Performance.getMetrics')
    const heap = metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? Number.NaN

    return [
      {
        name: `workbook ${ROWS.toLocaleString()} × ${COLUMNS}: first paint`,
        value: sheetPaint,
        unit: 'ms',
        target: '< 2000',
        pass: sheetPaint < 2000,
      },
      {
        name: 'grid scrolled top to bottom: longest task',
        value: longest,
        unit: 'ms',
        target: '< 100',
        pass: longest < 100,
      },
      { name: 'grid scrolled: long tasks (≥ 50 ms) in 300 steps', value: tasks.length, unit: 'tasks' },
      { name: 'grid: DOM nodes after first paint (1600 × 1000)', value: gridNodes, unit: 'nodes' },
      { name: 'PDF 100 pages: first page painted', value: pdfPaint, unit: 'ms' },
      { name: 'renderer JS heap, both opened', value: heap / 2 ** 20, unit: 'MB' },
    ]
  } finally {
    await browser.close()
    await bureau.stop()
  }
}
