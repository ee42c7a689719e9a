import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join, posix } from 'node:path'
import { promisify } from 'node:util'
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate'
import PptxGenJS from 'pptxgenjs'
import { afterAll, beforeAll, expect } from 'vitest'
import { createToolSession, invoke, type ToolResult, type ToolSession } from '../../../src/main/tools'
import { loadBuiltinToolsets } from '../../../src/main/toolsHost'
import { createWorkspace, type Workspace } from '../../../src/main/workspace'
import { fixturePath } from '../../support/fixtures'
import { describeNeeding } from '../../support/requirements'
import { tempDirs } from '../../support/tempDir'
import { itFast as it, itSoak } from '../../support/tier'
import { officeConvert } from './officeReaders'
import { pdfPages, pdfText } from './readers'

const run = promisify(execFile)
const dirs = tempDirs('bureau-pptx-template-')
let workspace: Workspace
let session: ToolSession

interface DeckReceipt {
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

const MASTER_RED = 'C00000'
const TITLE_BLUE = '1F4E79'
const SECTION_GREEN = '2E7D32'

/**
 * A template as another tool writes one: four named layouts with title and body placeholders in their own
 * places, a red master background that "Title and Content" and "Two Content" inherit, two slides of its own.
 */
async function makeTemplate(): Promise<Uint8Array> {
  const pptx = new PptxGenJS()
  pptx.layout = 'LAYOUT_16x9'
  const ph = (name: string, type: 'title' | 'body', x: number, y: number, w: number, h: number) => ({
    placeholder: { options: { name, type, x, y, w, h }, text: '' },
  })
  pptx.defineSlideMaster({
    title: 'Title Slide',
    background: { color: TITLE_BLUE },
    objects: [ph('title', 'title', 0.5, 1.5, 9, 1.2), ph('subtitle', 'body', 0.5, 3, 9, 1)],
  })
  pptx.defineSlideMaster({
    title: 'Section Header',
    background: { color: SECTION_GREEN },
    objects: [ph('title', 'title', 0.5, 2, 9, 1.2)],
  })
  pptx.defineSlideMaster({
    title: 'Title and Content',
    objects: [ph('title', 'title', 0.4, 0.2, 9.2, 0.9), ph('body', 'body', 0.4, 1.2, 9.2, 4.2)],
  })
  pptx.defineSlideMaster({
    title: 'Two Content',
    objects: [
      ph('title', 'title', 0.4, 0.2, 9.2, 0.9),
      ph('left', 'body', 0.4, 1.2, 4.5, 4.2),
      ph('right', 'body', 5.1, 1.2, 4.5, 4.2),
    ],
  })
  pptx.addSlide({ masterName: 'Title Slide' }).addText('Template cover', { placeholder: 'title' })
  pptx.addSlide({ masterName: 'Title and Content' }).addText('Template page', { placeholder: 'title' })
  const files = unzipSync((await pptx.write({ outputType: 'uint8array' })) as Uint8Array)
  const master = 'ppt/slideMasters/slideMaster1.xml'
  files[master] = strToU8(
    strFromU8(files[master] as Uint8Array).replace(
      '<p:cSld>',
      `<p:cSld><p:bg><p:bgPr><a:solidFill><a:srgbClr val="${MASTER_RED}"/></a:solidFill><a:effectLst/></p:bgPr></p:bg>`,
    ),
  )
  return zipSync(files)
}

const OUTLINE = [
  '# Annual plan\n\nFor the board, May',
  '# Goals\n\n- Grow North\n  - two stores\n- Keep South',
  '# Money',
  '# Numbers\n\n- Sales rose\n\n| Region | Sales |\n|---|---:|\n| North | 120 |\n| South | 80 |',
  '# Chart\n\n![chart](chart.png)',
].join('\n\n')

/** Each slide's layout name and placeholder types, read from the package's XML. */
function slidesOnLayouts(bytes: Uint8Array): Array<{ layout: string; placeholders: string[]; text: string }> {
  const files = unzipSync(bytes)
  const presentation = strFromU8(files['ppt/presentation.xml'] as Uint8Array)
  const presRels = strFromU8(files['ppt/_rels/presentation.xml.rels'] as Uint8Array)
  const targetOf = (rels: string, id: string) =>
    new RegExp(`<Relationship [^>]*Id="${id}"[^>]*Target="([^"]+)"`).exec(rels)?.[1] ??
    new RegExp(`<Relationship [^>]*Target="([^"]+)"[^>]*Id="${id}"`).exec(rels)?.[1] ??
    ''
  return [...presentation.matchAll(/<p:sldId [^>]*r:id="([^"]+)"/g)].map((m) => {
    const slide = posix.join('ppt', targetOf(presRels, m[1] ?? ''))
    const slideXml = strFromU8(files[slide] as Uint8Array)
    const rels = strFromU8(
      files[posix.join(posix.dirname(slide), '_rels', `${posix.basename(slide)}.rels`)] as Uint8Array,
    )
    const layoutTarget = /Target="([^"]*slideLayout\d+\.xml)"/.exec(rels)?.[1] ?? ''
    const layoutXml = strFromU8(files[posix.join(posix.dirname(slide), layoutTarget)] as Uint8Array)
    return {
      layout: /<p:cSld name="([^"]*)"/.exec(layoutXml)?.[1] ?? '',
      placeholders: [...slideXml.matchAll(/<p:ph[^>]*type="([^"]+)"/g)].map((p) => p[1] ?? ''),
      text: [...slideXml.matchAll(/<a:t>([^<]*)<\/a:t>/g)].map((t) => t[1]).join(' '),
    }
  })
}

/** The colour of one pixel of a PDF page, rendered by pdftoppm at a low resolution. */
async function pixel(pdf: string, page: number, x: number, y: number): Promise<string> {
  const { stdout } = (await run('pdftoppm', ['-f', String(page), '-l', String(page), '-r', '20', pdf], {
    encoding: 'buffer',
    maxBuffer: 64 * 1024 * 1024,
  })) as unknown as { stdout: Buffer }
  const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(stdout.subarray(0, 40).toString('latin1'))
  const width = Number(header?.[1])
  const at = (header?.[0].length ?? 0) + (y * width + x) * 3
  return [stdout[at], stdout[at + 1], stdout[at + 2]]
    .map((v) => (v ?? 0).toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase()
}

describeNeeding(['soffice', 'pdftotext'], 'PowerPoint decks on a template’s layouts', () => {
  beforeAll(async () => {
    const base = await dirs.make()
    workspace = createWorkspace({ root: join(base, 'workspace') })
    session = createToolSession({ toolsets: await loadBuiltinToolsets(), workspace })
    await workspace.writeFile('/decks/chart.png', await readFile(fixturePath('documents', 'chart.png')))
    await workspace.writeFile('/decks/template.pptx', await makeTemplate())
  }, 120_000)
  afterAll(async () => {
    await session?.dispose()
    await workspace?.close()
    await dirs.cleanup()
  })

  it('puts each new slide on the template’s layout for its kind, text in the placeholders', async () => {
    const created = await deck('create_pptx', {
      path: '/decks/plan.pptx',
      markdown: OUTLINE,
      template: '/decks/template.pptx',
    })
    expect(created.slides.map((s) => [s.title, s.layout])).toEqual([
      ['Annual plan', 'Title Slide'],
      ['Goals', 'Title and Content'],
      ['Money', 'Section Header'],
      ['Numbers', 'Two Content'],
      ['Chart', 'Title and Content'],
    ])
    expect(created.total_slides).toBe(5)
    expect(created.slides[3]?.contents).toEqual(['1 line(s) of text', 'table 3×2'])
    const written = slidesOnLayouts(await bytesOf('/decks/plan.pptx'))
    expect(written.map((s) => s.layout)).toEqual(created.slides.map((s) => s.layout))
    expect(written.map((s) => s.placeholders)).toEqual([
      ['title', 'body'],
      ['title', 'body'],
      ['title'],
      ['title', 'body'],
      ['title'],
    ])
    expect(written[1]?.text).toBe('Goals Grow North two stores Keep South')
    expect(written.map((s) => s.text).join(' ')).not.toContain('Template cover')
    const files = unzipSync(await bytesOf('/decks/plan.pptx'))
    expect(strFromU8(files['ppt/slideMasters/slideMaster1.xml'] as Uint8Array)).toContain(MASTER_RED)
    // The template's own slides are gone, with nothing left pointing at them.
    expect(Object.keys(files).filter((n) => /^ppt\/slides\/slide\d+\.xml$/.test(n))).toHaveLength(5)

    const appended = await deck('append_slides', {
      path: '/decks/plan.pptx',
      markdown: '# Wrap-up\n\n# Next steps\n\n- Hire\n- Ship',
    })
    expect(appended.slides.map((s) => [s.number, s.title, s.layout])).toEqual([
      [6, 'Wrap-up', 'Section Header'],
      [7, 'Next steps', 'Title and Content'],
    ])
    expect(slidesOnLayouts(await bytesOf('/decks/plan.pptx')).map((s) => s.layout)).toEqual([
      ...created.slides.map((s) => s.layout),
      'Section Header',
      'Title and Content',
    ])
  })

  it('refuses a template or deck with a damaged layout, writing nothing', async () => {
    const files = unzipSync(await bytesOf('/decks/template.pptx'))
    files['ppt/slideLayouts/slideLayout3.xml'] = strToU8('<p:sldLayout><p:cSld name="Broken"></p:sldLayout>')
    const damaged = zipSync(files)
    await workspace.writeFile('/bad/template.pptx', damaged)
    const created = await call('create_pptx', {
      path: '/bad/new.pptx',
      markdown: '# One\n\n- point',
      template: '/bad/template.pptx',
    })
    expect(created.ok ? '' : created.error).toMatch(
      /template\.pptx is not a readable PowerPoint deck \(ppt\/slideLayouts\/slideLayout3\.xml: .*nothing was changed/,
    )
    expect(await workspace.exists('/bad/new.pptx')).toBe(false)
    const appended = await call('append_slides', { path: '/bad/template.pptx', markdown: '# More' })
    expect(appended.ok ? '' : appended.error).toMatch(/not a readable PowerPoint deck.*slideLayout3/)
    expect(await bytesOf('/bad/template.pptx')).toEqual(damaged)
  })

  itSoak(
    'LibreOffice Impress shows the slides with their titles on the template’s backgrounds',
    { timeout: 300_000 },
    async () => {
      const created = await deck('create_pptx', {
        path: '/decks/soak.pptx',
        markdown: OUTLINE,
        template: '/decks/template.pptx',
      })
      expect(created.total_slides).toBe(5)
      const pdfs = await officeConvert(
        { soak: { bytes: await bytesOf('/decks/soak.pptx'), ext: 'pptx' } },
        await dirs.make(),
        'pdf',
      )
      const pdf = pdfs.soak as string
      expect(await pdfPages(pdf)).toBe(5)
      const pages = (await pdfText(pdf)).split('\f')
      for (const [i, title] of ['Annual plan', 'Goals', 'Money', 'Numbers', 'Chart'].entries())
        expect(pages[i], title).toContain(title)
      expect(pages[0]).toContain('For the board, May')
      expect(pages[3]).toContain('120')
      expect(await pixel(pdf, 1, 2, 2)).toBe(TITLE_BLUE)
      expect(await pixel(pdf, 3, 2, 2)).toBe(SECTION_GREEN)
      expect(await pixel(pdf, 2, 2, 2)).toBe(MASTER_RED)
    },
  )
})
