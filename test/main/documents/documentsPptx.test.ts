import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { strFromU8, unzipSync } from 'fflate'
import { afterAll, beforeAll, expect } from 'vitest'
import { createToolSession, invoke, type ToolResult, type ToolSession } from '../../../src/main/tools'
import { loadBuiltinToolsets } from '../../../src/main/toolsHost'
import { createWorkspace, type Workspace } from '../../../src/main/workspace'
import { fixturePath } from '../../support/fixtures'
import { describeNeeding, findThirdParty } from '../../support/requirements'
import { tempDirs } from '../../support/tempDir'
import { itFast as it, itSoak } from '../../support/tier'
import { officeConvert } from './officeReaders'
import { pdfPages, pdfText } from './readers'

const dirs = tempDirs('bureau-pptx-')
let workspace: Workspace
let session: ToolSession

interface DeckReceipt {
  path: string
  slides: Array<{ number: number; title: string; layout: string; contents: string[] }>
  total_slides: number
  warnings: string[]
}

const call = (method: string, args: Record<string, unknown>): Promise<ToolResult> =>
  invoke(session, `documents_${method}`, args)
async function deck(method: string, args: Record<string, unknown>): Promise<DeckReceipt> {
  const result = await call(method, args)
  if (!result.ok) throw new Error(`${method} failed: ${result.error}`)
  return result.value as DeckReceipt
}
const bytesOf = async (path: string) => new Uint8Array(await workspace.readFile(path))

const OUTLINE = [
  '# Quarterly review',
  '# Sales',
  '- North up 12%\n  - two new stores\n- South flat',
  '| Region | Sales |\n|---|---:|\n| North | 120 |\n| South | 80 |',
  'Notes: mention the new hire in the North.',
  '# Process',
  '```mermaid\nflowchart LR\n  A[Order] --> B[Ship] --> C[Invoice]\n```',
  '![chart](chart.png)',
].join('\n\n')

describeNeeding(['chromium', 'soffice', 'pdftotext'], 'PowerPoint decks', () => {
  beforeAll(async () => {
    const base = await dirs.make()
    workspace = createWorkspace({ root: join(base, 'workspace') })
    session = createToolSession({ toolsets: await loadBuiltinToolsets(), workspace })
    await workspace.writeFile('/decks/chart.png', await readFile(fixturePath('documents', 'chart.png')))
  })
  afterAll(async () => {
    await session?.dispose()
    await workspace?.close()
    await dirs.cleanup()
  })

  itSoak(
    'writes and appends decks that LibreOffice Impress reads with their slides and titles',
    {
      timeout: 300_000,
    },
    async () => {
      const created = await deck('create_pptx', { path: '/decks/review.pptx', markdown: OUTLINE })
      expect(created.slides).toEqual([
        { number: 1, title: 'Quarterly review', layout: 'title', contents: [] },
        {
          number: 2,
          title: 'Sales',
          layout: 'title, text and visuals',
          contents: ['3 line(s) of text', 'table 3×2', 'speaker notes'],
        },
        {
          number: 3,
          title: 'Process',
          layout: 'title and visuals',
          contents: ['diagram', 'image chart.png'],
        },
      ])
      expect(created.warnings).toEqual([])
      const files = unzipSync(await bytesOf('/decks/review.pptx'))
      const notes = Object.keys(files).filter((n) => /^ppt\/notesSlides\/notesSlide\d+\.xml$/.test(n))
      expect(notes.map((n) => strFromU8(files[n] as Uint8Array)).join('')).toContain('mention the new hire')

      const appended = await deck('append_slides', {
        path: '/decks/review.pptx',
        markdown: '# Next steps\n\n- Hire two engineers\n\n# Questions',
      })
      expect(appended.slides.map((s) => `${s.number}:${s.title}`)).toEqual(['4:Next steps', '5:Questions'])
      expect(appended.total_slides).toBe(5)

      const outputs: Record<string, { bytes: Uint8Array; ext: string }> = {
        review: { bytes: await bytesOf('/decks/review.pptx'), ext: 'pptx' },
      }
      const corpusDeck = findThirdParty('corpus', 'convert', 'test.pptx')
      let corpusSlides = 0
      if (corpusDeck) {
        await workspace.writeFile('/decks/theirs.pptx', await readFile(corpusDeck))
        const themed = await deck('create_pptx', {
          path: '/decks/themed.pptx',
          markdown: '# Themed\n\n- uses their theme',
          template: '/decks/theirs.pptx',
        })
        expect(themed.total_slides).toBe(1)
        const theirTheme = unzipSync(await bytesOf('/decks/theirs.pptx'))['ppt/theme/theme1.xml']
        expect(unzipSync(await bytesOf('/decks/themed.pptx'))['ppt/theme/theme1.xml']).toEqual(theirTheme)
        const added = await deck('append_slides', {
          path: '/decks/theirs.pptx',
          markdown: '# Added by Bureau\n\n- one more',
        })
        corpusSlides = added.total_slides
        expect(added.slides.at(-1)?.title).toBe('Added by Bureau')
        outputs.themed = { bytes: await bytesOf('/decks/themed.pptx'), ext: 'pptx' }
        outputs.theirs = { bytes: await bytesOf('/decks/theirs.pptx'), ext: 'pptx' }
      }
      const pdfs = await officeConvert(outputs, await dirs.make(), 'pdf')
      expect(await pdfPages(pdfs.review as string)).toBe(5)
      const text = await pdfText(pdfs.review as string)
      const pages = text.split('\f')
      for (const [i, title] of ['Quarterly review', 'Sales', 'Process', 'Next steps', 'Questions'].entries())
        expect(pages[i], title).toContain(title)
      expect(pages[1]).toContain('North up 12%')
      expect(pages[1]).toContain('120')
      if (corpusDeck) {
        expect(await pdfPages(pdfs.theirs as string)).toBe(corpusSlides)
        expect(await pdfText(pdfs.theirs as string)).toContain('Added by Bureau')
        expect(await pdfText(pdfs.themed as string)).toContain('uses their theme')
      }
    },
  )

  it('refuses a 500-slide outline, a damaged deck and a wrong extension, writing nothing', async () => {
    const huge = Array.from({ length: 500 }, (_, i) => `# Slide ${i + 1}\n\n- point`).join('\n\n')
    const tooMany = await call('create_pptx', { path: '/bad/huge.pptx', markdown: huge })
    expect(tooMany.ok ? '' : tooMany.error).toMatch(/more than 200 slides.*Nothing was written/)
    expect(await workspace.exists('/bad/huge.pptx')).toBe(false)
    await workspace.writeFile('/bad/broken.pptx', new Uint8Array([0x50, 0x4b, 3, 4, 1, 2, 3]))
    const broken = await call('append_slides', { path: '/bad/broken.pptx', markdown: '# More' })
    expect(broken.ok ? '' : broken.error).toMatch(/not a readable PowerPoint deck/)
    expect(await bytesOf('/bad/broken.pptx')).toEqual(new Uint8Array([0x50, 0x4b, 3, 4, 1, 2, 3]))
    const wrong = await call('create_pptx', { path: '/bad/deck.ppt', markdown: '# A' })
    expect(wrong.ok ? '' : wrong.error).toMatch(/must end in \.pptx/)
    const badTemplate = await call('create_pptx', {
      path: '/bad/t.pptx',
      markdown: '# A',
      template: '/bad/broken.pptx',
    })
    expect(badTemplate.ok ? '' : badTemplate.error).toMatch(/not a readable PowerPoint deck/)
    expect(await workspace.exists('/bad/t.pptx')).toBe(false)
  })
})
