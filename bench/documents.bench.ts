import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createDocumentBrowser } from '../src/main/documents/chromium/documentBrowser'
import { renderDocx, renderPdf } from '../src/main/documents/createDocuments'
import { SUPPORTED_DIAGRAMS } from '../src/main/documents/diagrams/supportedDiagrams'
import { reviewRows } from './documentsReview'
import { median } from './support'
import type { BenchRow } from './types'

// A 10-page report (sections of prose, a table, lists, code) with 3 Mermaid diagrams, written as PDF and
// DOCX in-process the way the toolset does; pandoc on the same Markdown without diagrams beside it.
const ROUNDS = 3
const LAYOUT = { pageSize: 'A4', margins: '2cm' }

function report(diagrams: boolean): string {
  const prose = 'The committee reviewed the figures for the quarter and agreed on the next steps. '.repeat(14)
  const table = [
    '| Region | Sales | Growth |',
    '|---|---:|---:|',
    ...Array.from({ length: 8 }, (_, i) => `| R${i} | ${100 + i * 7} | ${i}.5% |`),
  ].join('\n')
  const picks = [0, 1, 6].map((i) => SUPPORTED_DIAGRAMS[i]?.example ?? '')
  return Array.from({ length: 10 }, (_, page) => {
    const diagram =
      diagrams && page % 3 === 0 && page < 9 ? `\n\n\`\`\`mermaid\n${picks[page / 3]}\n\`\`\`` : ''
    return `## Section ${page + 1}\n\n${prose}\n\n${table}\n\n- first point\n- second point\n\n\`\`\`js\nconst x = ${page}\n\`\`\`${diagram}`
  }).join('\n\n\\pagebreak\n\n')
}

async function time(run: () => Promise<unknown>): Promise<number> {
  const samples: number[] = []
  for (let i = 0; i < ROUNDS; i += 1) {
    const start = performance.now()
    await run()
    samples.push(performance.now() - start)
  }
  return median(samples)
}

function pandocTime(args: string[]): number | string {
  if (spawnSync('pandoc', ['--version']).status !== 0)
    return 'pandoc is not installed (apt-get install -y pandoc)'
  const samples: number[] = []
  for (let i = 0; i < ROUNDS; i += 1) {
    const start = performance.now()
    const result = spawnSync('pandoc', args, { encoding: 'utf8' })
    if (result.status !== 0) return `pandoc failed: ${(result.stderr || '').split('\n')[0]}`
    samples.push(performance.now() - start)
  }
  return median(samples)
}

function pandocPdfEngine(): string | undefined {
  return ['weasyprint', 'wkhtmltopdf'].find((engine) => spawnSync('which', [engine]).status === 0)
}

export default async function documentsBench(): Promise<BenchRow[]> {
  const withDiagrams = report(true)
  const plain = report(false)
  const rows: BenchRow[] = []
  const coldStart = performance.now()
  const cold = createDocumentBrowser()
  const first = await renderPdf({ markdown: withDiagrams }, { browser: cold }, LAYOUT)
  rows.push({
    name: 'PDF 10 pages + 3 diagrams, cold (Chromium start)',
    value: performance.now() - coldStart,
    unit: 'ms',
    note: `${first.pages} pages`,
  })
  await cold.close()
  const browser = createDocumentBrowser()
  try {
    await renderPdf({ markdown: plain }, { browser }, LAYOUT)
    const pdf = await time(() => renderPdf({ markdown: withDiagrams }, { browser }, LAYOUT))
    rows.push({ name: 'PDF 10 pages + 3 diagrams, warm', value: pdf, unit: 'ms' })
    const docx = await time(() => renderDocx({ markdown: withDiagrams }, { browser }))
    rows.push({ name: 'DOCX same content + 3 diagrams, warm', value: docx, unit: 'ms' })
    const pdfPlain = await time(() => renderPdf({ markdown: plain }, { browser }, LAYOUT))
    rows.push({ name: 'PDF 10 pages, no diagrams, warm', value: pdfPlain, unit: 'ms' })
    const docxPlain = await time(() => renderDocx({ markdown: plain }, { browser }))
    rows.push({ name: 'DOCX 10 pages, no diagrams', value: docxPlain, unit: 'ms' })
    rows.push(...(await reviewRows(browser)))
    const dir = mkdtempSync(join(tmpdir(), 'bureau-docbench-'))
    try {
      const input = join(dir, 'report.md')
      writeFileSync(input, plain)
      const docxPeer = pandocTime([input, '-o', join(dir, 'p.docx')])
      if (typeof docxPeer === 'number')
        rows.push({
          name: 'pandoc md -> docx, no diagrams (process)',
          value: docxPeer,
          unit: 'ms',
          note: `Bureau/pandoc ${(docxPlain / docxPeer).toFixed(1)}x`,
        })
      else console.log(`documents bench: pandoc docx row skipped: ${docxPeer}`)
      const engine = pandocPdfEngine()
      if (!engine)
        console.log(
          'documents bench: pandoc PDF row skipped: no HTML PDF engine (apt-get install -y weasyprint)',
        )
      else {
        const pdfPeer = pandocTime([input, '--pdf-engine', engine, '-o', join(dir, 'p.pdf')])
        if (typeof pdfPeer === 'number')
          rows.push({
            name: `pandoc md -> pdf (${engine}), no diagrams`,
            value: pdfPeer,
            unit: 'ms',
            note: `Bureau/pandoc ${(pdfPlain / pdfPeer).toFixed(1)}x`,
          })
        else console.log(`documents bench: pandoc PDF row skipped: ${pdfPeer}`)
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  } finally {
    await browser.close()
  }
  return rows
}
