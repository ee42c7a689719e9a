import { copyFile, readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect } from 'vitest'
import { createConverter } from '../../../src/main/convert'
import { SUPPORTED_DIAGRAMS } from '../../../src/main/documents/diagrams/supportedDiagrams'
import { createToolSession, invoke, type ToolResult, type ToolSession } from '../../../src/main/tools'
import { loadBuiltinToolsets } from '../../../src/main/toolsHost'
import { createWorkspace, type Workspace } from '../../../src/main/workspace'
import { fixturePath } from '../../support/fixtures'
import { describeNeeding } from '../../support/requirements'
import { tempDirs } from '../../support/tempDir'
import { itFast as it, itSoak, tier } from '../../support/tier'
import {
  edgeSpread,
  inOrder,
  libreOfficeConvert,
  pageHolding,
  pdfImages,
  pdfPages,
  pdfText,
  pdfWords,
} from './readers'

const dirs = tempDirs('bureau-documents-')
const SLOW = 240_000
let root: string
let scratch: string
let workspace: Workspace
let session: ToolSession
const converter = createConverter()

interface Receipt {
  path: string
  bytes: number
  pages?: number
  headings: number
  tables: number
  diagrams: number
  diagrams_failed: number
  images: number
  warnings: string[]
  backup?: string
}

const BROKEN = 'flowchart TD\n  A --> (((broken'
const corpus = async () =>
  `${await readFile(fixturePath('documents', 'corpus.md'), 'utf8')}\n\n## Diagrams\n\n${SUPPORTED_DIAGRAMS.map(
    (d) => `### Diagram ${d.type}\n\n\`\`\`mermaid\n${d.example}\n\`\`\`\n`,
  ).join('\n')}\n### Broken diagram\n\n\`\`\`mermaid\n${BROKEN}\n\`\`\`\n`

async function call(method: string, args: Record<string, unknown>): Promise<ToolResult> {
  return invoke(session, `documents_${method}`, args)
}
async function receipt(method: string, args: Record<string, unknown>): Promise<Receipt> {
  const result = await call(method, args)
  if (!result.ok) throw new Error(`${method} failed: ${result.error}`)
  return result.value as Receipt
}

/** Headings, list items and table cells of the corpus, in document order. */
const CORPUS_ORDER = [
  'Quarterly report',
  'third quarter',
  'Results by region',
  'North',
  'Anna',
  '1,200',
  'East',
  'Steps taken',
  'Collected the figures',
  'against the ledger',
  'first the savings account',
  'Wrote this report',
  'Budget approved',
  'The board noted the growth',
  'A nested remark from the chair',
  'def total(values)',
  'Languages',
  'Η γρήγορη καφέ αλεπού',
  'Съешь же ещё этих мягких',
  '敏捷的棕色狐狸跳过了懒狗',
  'いろはにほへと',
  '다람쥐 헌 쳇바퀴에',
  'השועל החום המהיר',
  'Closing',
  'Thank you for reading',
]

let docx: Receipt
let pdf: Receipt
/** The DOCX files LibreOffice opens, by name: the corpus and the ones the bad-input tests write. */
const DOCX_FOR_LIBREOFFICE = {
  hostile: '/out/hostile.docx',
  templated: '/out/templated.docx',
  big: '/out/big.docx',
} as const
let corpusDocx: Uint8Array
let loPdfs: Promise<Record<string, string>> | undefined
/**
 * Every DOCX of this file as LibreOffice prints it: one soffice run (its start-up is most of the cost) shared by
 * the tests that read them, which run after the tests that wrote them.
 */
const throughLibreOffice = async (name: keyof typeof DOCX_FOR_LIBREOFFICE | 'q3'): Promise<string> => {
  loPdfs ??= (async () => {
    // The corpus as create_docx wrote it (a later test overwrites the file).
    const files: Record<string, Uint8Array> = { q3: corpusDocx }
    for (const [key, path] of Object.entries(DOCX_FOR_LIBREOFFICE))
      files[key] = new Uint8Array(await workspace.readFile(path))
    return libreOfficeConvert(files, join(scratch, 'lo'), 'pdf')
  })()
  const made = (await loPdfs)[name]
  if (!made) expect.fail(`LibreOffice made no PDF of ${name}`)
  return made
}

/** Sections separated by page breaks: a long document, so every section starts a page. */
const sectionedMarkdown = (sections: number) =>
  Array.from(
    { length: sections },
    (_, i) => `## Section ${i + 1}\n\n${'Lorem ipsum dolor sit amet. '.repeat(20)}`,
  ).join('\n\n\\pagebreak\n\n')

/** The PDF and the DOCX of a long document: pages and sections as many as asked, read back by pdfinfo and the converter. */
async function expectLongDocument(sections: number, name: string): Promise<void> {
  const markdown = sectionedMarkdown(sections)
  const big = await receipt('create_pdf', { path: `/out/${name}.pdf`, markdown })
  expect(big.pages).toBe(sections)
  expect(await pdfPages(join(root, 'out', `${name}.pdf`))).toBe(sections)
  const bigDocx = await receipt('create_docx', { path: `/out/${name}.docx`, markdown })
  expect(bigDocx.headings).toBe(sections)
  const bytes = new Uint8Array(await workspace.readFile(`/out/${name}.docx`))
  const { markdown: back } = await converter.convert({ name: `${name}.docx`, bytes })
  expect(back.match(/^## Section \d+$/gm)).toHaveLength(sections)
}

/** Sections of the long document the fast tier writes (and LibreOffice opens); the soak tier writes 200. */
const BIG_SECTIONS = 20

/** Each diagram's text that must be PDF text (a vector drawing), in its own section of the corpus. */
const DIAGRAM_LABELS: Record<(typeof SUPPORTED_DIAGRAMS)[number]['type'], string> = {
  flowchart: 'Approved?',
  sequenceDiagram: 'Invoice',
  classDiagram: 'Customer',
  'stateDiagram-v2': 'Review',
  erDiagram: 'CUSTOMER',
  gantt: 'Design',
  pie: 'Staff',
  journey: 'Fill form',
  gitGraph: 'draft',
  mindmap: 'Offsite',
  timeline: 'Milestones',
  quadrantChart: 'Priorities',
  'xychart-beta': 'Sales',
}

/** Headings of the corpus in order: the table of contents lists them before the body starts. */
const TOC = ['Contents', 'Quarterly report', 'Results by region', 'Steps taken', 'Languages']

/** The constructs a reader sees in layout: the page break, the contents, the table's column alignment. */
async function expectLayout(path: string) {
  const raw = await pdfText(path)
  // `\pagebreak` puts the Languages section at the top of a new page.
  expect(pageHolding(raw, 'Greek:')?.trim().startsWith('Languages')).toBe(true)
  expect(pageHolding(raw, 'keeps')).not.toContain('Greek:')
  expect(inOrder(raw.replace(/\s+/g, ' '), [...TOC, 'This report covers'])).toEqual([])
  const words = await pdfWords(path)
  const left = edgeSpread(words, ['North', 'South', 'East'])
  const centre = edgeSpread(words, ['Anna', 'Ben', 'Chen'])
  const right = edgeSpread(words, ['1,200', '980', '1,450'])
  expect(left.left).toBeLessThan(1)
  expect(left.right).toBeGreaterThan(3)
  expect(centre.centre).toBeLessThan(1)
  expect(centre.left).toBeGreaterThan(3)
  expect(right.right).toBeLessThan(1)
  expect(right.left).toBeGreaterThan(3)
}

beforeAll(async () => {
  const base = await dirs.make()
  root = join(base, 'workspace')
  scratch = join(base, 'scratch')
  workspace = createWorkspace({ root })
  await workspace.writeFile('/reports/chart.png', await readFile(fixturePath('documents', 'chart.png')))
  await copyFile(fixturePath('core', 'report.docx'), join(base, 'template.docx'))
  await workspace.writeFile('/templates/house.docx', await readFile(join(base, 'template.docx')))
  session = createToolSession({ toolsets: await loadBuiltinToolsets(), workspace })
  // The soak tier's one test here writes its own long document; the corpus is for the fast tier's tests.
  if (tier === 'soak') return
  const markdown = await corpus()
  docx = await receipt('create_docx', { path: '/reports/q3.docx', markdown, title: 'Q3 report', toc: true })
  corpusDocx = new Uint8Array(await workspace.readFile('/reports/q3.docx'))
  pdf = await receipt('create_pdf', { path: '/reports/q3.pdf', markdown, title: 'Q3 report', toc: true })
}, SLOW)

afterAll(async () => {
  await session?.dispose()
  await workspace?.close()
  await converter.dispose()
  await dirs.cleanup()
})

describeNeeding(
  ['soffice', 'pdftotext', 'chromium'],
  'the documents toolset (LibreOffice, pdftotext and Chromium read what it writes)',
  () => {
    describe('create_docx', () => {
      it('returns a receipt: headings, tables, diagrams drawn and the broken one reported', () => {
        expect(docx.path).toBe('/reports/q3.docx')
        expect(docx.tables).toBe(1)
        expect(docx.images).toBe(1)
        expect(docx.diagrams).toBe(SUPPORTED_DIAGRAMS.length)
        expect(docx.diagrams_failed).toBe(1)
        expect(docx.warnings.join('\n')).toMatch(/could not be drawn \(kept as code\)/)
      })

      it(
        "Bureau's converter reads it back with headings, table rows, list items, footnote and diagrams",
        async () => {
          const bytes = new Uint8Array(await workspace.readFile('/reports/q3.docx'))
          const { markdown } = await converter.convert({ name: 'q3.docx', bytes })
          for (const line of [
            '# Quarterly report',
            '## Results by region',
            '### Steps taken',
            '#### Closing',
            '| North | Anna | 1,200 | 4.5% |',
            '| East | Chen | 1,450 | 7.0% |',
            '1. Collected the figures',
            '* against the ledger',
            '1. first the savings account',
            '[^1]',
            '**third quarter**',
            '[link to the project](https://example.org/bureau)',
          ])
            expect(markdown).toContain(line)
          for (const diagram of SUPPORTED_DIAGRAMS) expect(markdown).toContain(`### Diagram ${diagram.type}`)
          // Each picture's alt text is the diagram's source, so a reader of the file still has it.
          expect(markdown.match(/\]\(data:image\/png/g)?.length).toBe(SUPPORTED_DIAGRAMS.length + 1)
          expect(markdown).toContain('sequenceDiagram   Alice->>Bob: Invoice')
        },
        SLOW,
      )
    })

    describe('create_pdf', () => {
      it(
        'pdftotext reads every construct and language in order; pages match pdfinfo',
        async () => {
          const path = join(root, 'reports', 'q3.pdf')
          expect(pdf.pages).toBe(await pdfPages(path))
          expect(pdf.pages).toBeGreaterThanOrEqual(5)
          const text = (await pdfText(path)).replace(/\s+/g, ' ')
          expect(inOrder(text, ['Q3 report', 'Contents', ...CORPUS_ORDER])).toEqual([])
          expect(text).toContain('Figures from the finance team')
          // Arabic comes out in visual order from pdftotext; its words are there.
          expect(text).toMatch(/العربية|ﺔﻴﺑﺮﻌﻟا/)
        },
        SLOW,
      )

      it(
        'draws every diagram as vector graphics: their labels are PDF text, the broken one is code',
        async () => {
          const text = (await pdfText(join(root, 'reports', 'q3.pdf'))).replace(/\s+/g, ' ')
          // Each label lies in its own diagram's section (between its heading and the next one; the last
          // occurrence of a heading is in the body, the first in the table of contents).
          for (const [i, diagram] of SUPPORTED_DIAGRAMS.entries()) {
            const start = text.lastIndexOf(`Diagram ${diagram.type}`)
            const next = SUPPORTED_DIAGRAMS[i + 1]
            const end = next ? text.lastIndexOf(`Diagram ${next.type}`) : text.lastIndexOf('Broken diagram')
            expect(start, diagram.type).toBeGreaterThan(0)
            expect(text.slice(start, end), diagram.type).toContain(DIAGRAM_LABELS[diagram.type])
          }
          expect(text).toContain('A --> (((broken')
          expect(pdf.diagrams).toBe(SUPPORTED_DIAGRAMS.length)
          expect(pdf.diagrams_failed).toBe(1)
          // Diagrams are vectors; the one picture of the Markdown is embedded as it is.
          expect(await pdfImages(join(root, 'reports', 'q3.pdf'))).toContainEqual({
            page: expect.any(Number),
            width: 160,
            height: 80,
          })
        },
        SLOW,
      )

      it(
        'the contents list the headings, the page break holds, table columns keep their alignment',
        async () => expectLayout(join(root, 'reports', 'q3.pdf')),
        SLOW,
      )

      it(
        "Bureau's converter reads the PDF back with the table rows",
        async () => {
          const bytes = new Uint8Array(await workspace.readFile('/reports/q3.pdf'))
          const { markdown } = await converter.convert({ name: 'q3.pdf', bytes })
          expect(markdown).toContain('| North | Anna | 1,200 | 4.5% |')
          expect(markdown).toContain('Results by region')
        },
        SLOW,
      )
    })

    describe('bad input', () => {
      it(
        'a missing image and a remote image are warnings; the file is still written',
        async () => {
          const out = await receipt('create_pdf', {
            path: '/out/missing.pdf',
            markdown:
              '# Pictures\n\n![gone](/nowhere.png)\n\n![remote](https://example.org/x.png)\n\nText after.',
          })
          expect(out.warnings).toHaveLength(2)
          expect(out.warnings[0]).toMatch(/nowhere\.png/)
          expect(out.warnings[1]).toMatch(/nothing is downloaded/)
          expect(await pdfText(join(root, 'out', 'missing.pdf'))).toContain('Text after.')
        },
        SLOW,
      )

      it(
        'hostile HTML never runs and never reaches the network',
        async () => {
          const hits: string[] = []
          const server: Server = createServer((req, res) => {
            hits.push(req.url ?? '')
            res.end('x')
          })
          await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
          const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
          try {
            const markdown = [
              '# Hostile',
              `<script>fetch("${url}/script"); document.body.innerHTML = "PWNED"</script>`,
              `<img src="${url}/img" onerror="document.body.innerHTML='PWNED'">`,
              `<iframe src="${url}/frame"></iframe>`,
              `<link rel="stylesheet" href="${url}/css">`,
              `[click](javascript:alert(1)) and ![x](${url}/md-image.png)`,
              'Visible text stays.',
            ].join('\n\n')
            await receipt('create_pdf', { path: '/out/hostile.pdf', markdown })
            await receipt('create_docx', { path: '/out/hostile.docx', markdown })
            const text = await pdfText(join(root, 'out', 'hostile.pdf'))
            expect(text).toContain('Visible text stays.')
            expect(text).not.toContain('PWNED')
            expect(hits).toEqual([])
          } finally {
            await new Promise((resolve) => server.close(resolve))
          }
        },
        SLOW,
      )

      it(
        'refuses a wrong extension and an existing file unless overwrite; overwrite keeps a backup',
        async () => {
          const wrong = await call('create_pdf', { path: '/out/a.docx', markdown: '# A' })
          expect(wrong.ok).toBe(false)
          if (!wrong.ok) expect(wrong.error).toMatch(/must end in \.pdf/)
          const again = await call('create_docx', { path: '/reports/q3.docx', markdown: '# Again' })
          expect(again.ok).toBe(false)
          if (!again.ok) expect(again.code).toBe('CONFLICT')
          const replaced = await receipt('create_docx', {
            path: '/reports/q3.docx',
            markdown: '# Again',
            overwrite: true,
          })
          expect(replaced.backup).toMatch(/\.bak$/)
          expect(await workspace.exists(replaced.backup ?? '')).toBe(true)
        },
        SLOW,
      )

      it(
        'uses the styles of a template document',
        async () => {
          const out = await receipt('create_docx', {
            path: '/out/templated.docx',
            markdown: '# Styled\n\nBody.',
            template: '/templates/house.docx',
          })
          expect(out.headings).toBe(1)
          const notWord = await call('create_docx', {
            path: '/out/t2.docx',
            markdown: '# X',
            template: '/reports/chart.png',
          })
          expect(notWord.ok).toBe(false)
          if (!notWord.ok) expect(notWord.error).toMatch(/not a Word document/)
        },
        SLOW,
      )

      it(
        `a ${BIG_SECTIONS}-page document: the PDF has ${BIG_SECTIONS} pages, the DOCX reads back with ${BIG_SECTIONS} sections`,
        async () => expectLongDocument(BIG_SECTIONS, 'big'),
        SLOW,
      )

      itSoak(
        'a 200-page document: the PDF has 200 pages, the DOCX reads back with 200 sections, LibreOffice opens it with 200 pages',
        async () => {
          await expectLongDocument(200, 'big200')
          const out = await libreOfficeConvert(
            { big200: new Uint8Array(await workspace.readFile('/out/big200.docx')) },
            join(scratch, 'lo-200'),
            'pdf',
          )
          expect(await pdfPages(out.big200 ?? '')).toBe(200)
        },
        2 * SLOW,
      )
    })

    it('supported_diagrams lists every type with an example', async () => {
      const result = await call('supported_diagrams', {})
      expect(result.ok).toBe(true)
      if (result.ok) {
        const { diagrams } = result.value as { diagrams: Array<{ type: string; example: string }> }
        expect(diagrams.map((d) => d.type)).toEqual(SUPPORTED_DIAGRAMS.map((d) => d.type))
        for (const d of diagrams) expect(d.example.startsWith(d.type)).toBe(true)
      }
    })

    // Runs last: the files are the ones the tests above wrote, all opened by one soffice run.
    describe('in LibreOffice', () => {
      it(
        'opens the corpus DOCX and converts it to PDF with the text in order and every picture',
        async () => {
          const lo = await throughLibreOffice('q3')
          const text = (await pdfText(lo)).replace(/\s+/g, ' ')
          expect(
            inOrder(
              text,
              CORPUS_ORDER.filter((t) => !['Anna', '1,200', 'East'].includes(t)),
            ),
          ).toEqual([])
          expect(text).toContain('A --> (((broken')
          const images = await pdfImages(lo)
          // The chart plus one PNG per drawn diagram, at about 288 dpi (3 pixels per CSS pixel).
          expect(images.length).toBe(SUPPORTED_DIAGRAMS.length + 1)
          expect(images.filter((i) => i.width >= 300).length).toBeGreaterThanOrEqual(
            SUPPORTED_DIAGRAMS.length,
          )
        },
        SLOW,
      )

      it(
        'the corpus DOCX: the contents list the headings, the page break holds, table columns keep their alignment',
        async () => expectLayout(await throughLibreOffice('q3')),
        SLOW,
      )

      it(
        `opens every other DOCX written above: hostile, templated, and ${BIG_SECTIONS} pages from ${BIG_SECTIONS - 1} page breaks`,
        async () => {
          expect(await pdfText(await throughLibreOffice('hostile'))).toContain('Visible text stays.')
          expect(await pdfText(await throughLibreOffice('templated'))).toContain('Styled')
          expect(await pdfPages(await throughLibreOffice('big'))).toBe(BIG_SECTIONS)
        },
        SLOW,
      )
    })
  },
)
