import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import PptxGenJS from 'pptxgenjs'
import type { DocumentBrowser } from '../src/main/documents/chromium/documentBrowser'
import { renderDocx } from '../src/main/documents/createDocuments'
import { SUPPORTED_DIAGRAMS } from '../src/main/documents/diagrams/supportedDiagrams'
import { prepareAssets } from '../src/main/documents/markdown/assets'
import { buildDeck } from '../src/main/documents/pptx/buildDeck'
import { templateDeck } from '../src/main/documents/pptx/deckPackage'
import { outlineSlides } from '../src/main/documents/pptx/outline'
import { slideKind } from '../src/main/documents/pptx/templateSlide'
import { suggestEdit } from '../src/main/documents/review/textEdits'
import { openWord, saveWord } from '../src/main/documents/review/wordXml'
import type { BenchRow } from './types'

// A 40-slide deck with 5 diagrams, and a review pass of 200 suggested edits on a 50-page .docx beside
// python-docx (Debian's) making the same 200 replacements run by run, as its users do.
const EDITS = 200

function outline(): string {
  const picks = [0, 1, 2, 5, 6].map((i) => SUPPORTED_DIAGRAMS[i]?.example ?? '')
  return Array.from({ length: 40 }, (_, i) => {
    const diagram = i % 8 === 3 ? `\n\n\`\`\`mermaid\n${picks[(i - 3) / 8]}\n\`\`\`` : ''
    const table = i % 5 === 1 ? '\n\n| Region | Sales |\n|---|---:|\n| North | 120 |\n| South | 80 |' : ''
    return `# Slide ${i + 1}\n\n- First point of ${i + 1}\n  - detail\n- Second point${table}${diagram}\n\nNotes: say ${i + 1}.`
  }).join('\n\n')
}

function longReport(): string {
  const prose = (page: number, p: number) =>
    `Clause ${page}.${p}: the supplier shall deliver the goods described in schedule ref${page * 4 + p} within thirty days of the order, ` +
    'and the customer shall pay each invoice within the agreed term unless the parties agree otherwise in writing. '.repeat(
      3,
    )
  return Array.from(
    { length: 50 },
    (_, page) => `## Part ${page + 1}\n\n${Array.from({ length: 4 }, (_, p) => prose(page, p)).join('\n\n')}`,
  ).join('\n\n\\pagebreak\n\n')
}

const PYTHON = `
import sys, time, docx
src, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
start = time.perf_counter()
d = docx.Document(src)
for k in range(n):
    find, repl = 'ref%d ' % k, 'REF-%d ' % k
    for p in d.paragraphs:
        if find in p.text:
            for r in p.runs:
                if find in r.text:
                    r.text = r.text.replace(find, repl)
d.save(out)
print((time.perf_counter() - start) * 1000)
`

/** A template with named title, section, content and two-content layouts, as another tool writes one. */
async function template(): Promise<Uint8Array> {
  const pptx = new PptxGenJS()
  pptx.layout = 'LAYOUT_16x9'
  const ph = (name: string, x: number, y: number, w: number, h: number) => ({
    placeholder: {
      options: { name, type: name === 'title' ? ('title' as const) : ('body' as const), x, y, w, h },
      text: '',
    },
  })
  pptx.defineSlideMaster({
    title: 'Title Slide',
    background: { color: '1F4E79' },
    objects: [ph('title', 0.5, 1.5, 9, 1.2), ph('sub', 0.5, 3, 9, 1)],
  })
  pptx.defineSlideMaster({ title: 'Section Header', objects: [ph('title', 0.5, 2, 9, 1.2)] })
  pptx.defineSlideMaster({
    title: 'Title and Content',
    objects: [ph('title', 0.4, 0.2, 9.2, 0.9), ph('body', 0.4, 1.2, 9.2, 4.2)],
  })
  pptx.defineSlideMaster({
    title: 'Two Content',
    objects: [
      ph('title', 0.4, 0.2, 9.2, 0.9),
      ph('left', 0.4, 1.2, 4.5, 4.2),
      ph('right', 5.1, 1.2, 4.5, 4.2),
    ],
  })
  pptx.addSlide({ masterName: 'Title Slide' }).addText('Cover', { placeholder: 'title' })
  return (await pptx.write({ outputType: 'uint8array' })) as Uint8Array
}

export async function reviewRows(browser: DocumentBrowser): Promise<BenchRow[]> {
  const rows: BenchRow[] = []
  const deckStart = performance.now()
  const { slides, root } = outlineSlides(outline())
  const assets = await prepareAssets(root, { baseDir: '/', browser, png: true })
  const deck = await buildDeck(slides, assets, { size: '16:9' })
  rows.push({
    name: 'PPTX 40 slides + 5 diagrams, warm',
    value: performance.now() - deckStart,
    unit: 'ms',
    note: `${deck.plans.length} slides, ${(deck.bytes.length / 1024).toFixed(0)} KB`,
  })
  const base = await template()
  const graftStart = performance.now()
  const placements = slides.map((outline, i) => ({ outline, kind: slideKind(outline, i === 0) }))
  const onTemplate = templateDeck(base, deck.bytes, 'template.pptx', placements)
  rows.push({
    name: 'PPTX the same 40 slides moved onto a template’s layouts',
    value: performance.now() - graftStart,
    unit: 'ms',
    note: `${new Set(onTemplate.layouts).size} layouts used, ${(onTemplate.bytes.length / 1024).toFixed(0)} KB`,
  })
  const source = (await renderDocx({ markdown: longReport() }, { browser })).bytes
  const editStart = performance.now()
  const file = openWord(source, 'bench.docx')
  let changes = 0
  for (let k = 0; k < EDITS; k += 1)
    changes += suggestEdit(file.doc, {
      find: `ref${k} `,
      replace: `REF-${k} `,
      author: 'Bench',
      matchCase: true,
    }).changeIds.length
  const edited = saveWord(file)
  const bureau = performance.now() - editStart
  rows.push({
    name: `DOCX review: ${EDITS} suggested edits on 50 pages (open, edit, save)`,
    value: bureau,
    unit: 'ms',
    note: `${changes} tracked changes, ${(edited.length / 1024).toFixed(0)} KB`,
  })
  const python = '/usr/bin/python3'
  if (spawnSync(python, ['-c', 'import docx']).status !== 0) {
    console.log('documents bench: python-docx row skipped: apt-get install -y python3-docx')
    return rows
  }
  const dir = mkdtempSync(join(tmpdir(), 'bureau-reviewbench-'))
  try {
    const input = join(dir, 'in.docx')
    writeFileSync(input, source)
    const start = performance.now()
    const result = spawnSync(python, ['-c', PYTHON, input, join(dir, 'out.docx'), String(EDITS)], {
      encoding: 'utf8',
    })
    const process = performance.now() - start
    if (result.status !== 0)
      console.log(`documents bench: python-docx failed: ${result.stderr.split('\n').at(-2)}`)
    else
      rows.push({
        name: `python-docx: the same ${EDITS} replacements, untracked (process)`,
        value: process,
        unit: 'ms',
        note: `in Python ${Number(result.stdout).toFixed(0)} ms; Bureau/python-docx ${(bureau / process).toFixed(1)}x`,
      })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  return rows
}
