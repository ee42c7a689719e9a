import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { decode as decodePng } from 'fast-png'
import { decode as decodeJpeg } from 'jpeg-js'
import { PDFDocument, rgb } from 'pdf-lib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createToolSession, invoke, type ToolResult, type ToolSession } from '../../../src/main/tools'
import { loadBuiltinToolsets } from '../../../src/main/toolsHost'
import { createWorkspace, type Workspace } from '../../../src/main/workspace'
import { detectFileKind } from '../../../src/shared/files'
import { tempDirs } from '../../support/tempDir'

const dirs = tempDirs('bureau-pdf-images-')
let root: string
let workspace: Workspace
let session: ToolSession

interface PageImage {
  path: string
  page: number
  width: number
  height: number
  format: string
  bytes: number
}
interface Receipt {
  path: string
  pages: number
  dpi: number
  images: PageImage[]
}

/** Three pages of different sizes (points); page 2's left half is black, the rest white. */
async function threePagePdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create()
  pdf.addPage([612, 792])
  const second = pdf.addPage([300, 200])
  second.drawRectangle({ x: 0, y: 0, width: 150, height: 200, color: rgb(0, 0, 0) })
  pdf.addPage([595, 842])
  return pdf.save()
}

const call = (args: Record<string, unknown>) => invoke(session, 'convert_pdf_to_images', args)
function receipt(result: ToolResult): Receipt {
  if (!result.ok) expect.fail(`expected success, got: ${result.error}`)
  return result.value as Receipt
}
function failure(result: ToolResult): string {
  if (result.ok) expect.fail(`expected a failure, got ${JSON.stringify(result.value)}`)
  return result.error
}

beforeAll(async () => {
  root = join(await dirs.make(), 'workspace')
  await mkdir(join(root, 'data'), { recursive: true })
  await writeFile(join(root, 'data', 'three.pdf'), await threePagePdf())
  await writeFile(join(root, 'data', 'notes.pdf'), 'just some text, not a PDF\n')
  await writeFile(join(root, 'data', 'broken.pdf'), (await threePagePdf()).subarray(0, 40))
  workspace = createWorkspace({ root })
  session = createToolSession({ toolsets: await loadBuiltinToolsets(), workspace })
})
afterAll(async () => {
  await session.dispose()
  await workspace.close()
  await dirs.cleanup()
})

describe('convert pdf_to_images', () => {
  it('renders a PDF of three pages to three PNGs, each the page size at the dpi, read back from the files', async () => {
    const result = receipt(await call({ path: '/data/three.pdf', to: '/data/pages', dpi: 72 }))
    expect(result.pages).toBe(3)
    expect(result.images.map((i) => [i.path, i.page, i.width, i.height, i.format])).toEqual([
      ['/data/pages/three-1.png', 1, 612, 792, 'png'],
      ['/data/pages/three-2.png', 2, 300, 200, 'png'],
      ['/data/pages/three-3.png', 3, 595, 842, 'png'],
    ])
    for (const image of result.images) {
      const bytes = await readFile(join(root, image.path))
      expect(detectFileKind(bytes)).toBe('png')
      expect(bytes.length).toBe(image.bytes)
      const decoded = decodePng(bytes)
      expect([decoded.width, decoded.height]).toEqual([image.width, image.height])
    }
    // Page 2 is drawn, not blank: black on the left, white paper on the right.
    const second = decodePng(await readFile(join(root, 'data/pages/three-2.png')))
    const channels = second.channels ?? 3
    const pixel = (x: number, y: number) => second.data[(y * second.width + x) * channels] as number
    expect(pixel(20, 100)).toBeLessThan(30)
    expect(pixel(280, 100)).toBeGreaterThan(225)
  })

  it('scales with dpi and writes one chosen page as the named JPEG', async () => {
    const result = receipt(
      await call({ path: '/data/three.pdf', to: '/data/poster.jpg', pages: [2], dpi: 144 }),
    )
    expect(result.images).toEqual([
      expect.objectContaining({ path: '/data/poster.jpg', page: 2, width: 600, height: 400, format: 'jpeg' }),
    ])
    const bytes = await readFile(join(root, 'data/poster.jpg'))
    expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff])
    const decoded = decodeJpeg(bytes, { useTArray: true })
    expect([decoded.width, decoded.height]).toEqual([600, 400])
    expect(decoded.data[(200 * 600 + 50) * 4]).toBeLessThan(40)
  })

  it('refuses a page out of range, a huge dpi, a file that is not a PDF, a bad target, and writes nothing', async () => {
    expect(failure(await call({ path: '/data/three.pdf', to: '/data/out', pages: [2, 4] }))).toContain(
      'has 3 pages; page 4 does not exist',
    )
    expect(failure(await call({ path: '/data/three.pdf', to: '/data/out', dpi: 5000 }))).toMatch(/dpi/)
    expect(failure(await call({ path: '/data/notes.pdf', to: '/data/out' }))).toContain('is not a PDF')
    expect(failure(await call({ path: '/data/broken.pdf', to: '/data/out' }))).toContain('cannot be rendered')
    expect(failure(await call({ path: '/data/three.pdf', to: '/data/out/page.gif', pages: [1] }))).toContain(
      '.gif',
    )
    expect(failure(await call({ path: '/data/three.pdf', to: '/data/one.png' }))).toContain(
      'has 3 pages and one picture is asked for',
    )
    expect(failure(await call({ path: '/data/three.pdf', to: '/data/one.png', pages: [1, 2] }))).toContain(
      'exactly one page',
    )
    expect(failure(await call({ path: '/data/missing.pdf', to: '/data/out' }))).toMatch(/missing\.pdf/)
    expect(await workspace.exists('/data/out')).toBe(false)
    expect(await workspace.exists('/data/one.png')).toBe(false)
  })

  it('writes a one-page PDF to a named picture without pages', async () => {
    const pdf = await PDFDocument.create()
    pdf.addPage([200, 100])
    await workspace.writeFile('/data/post.pdf', await pdf.save())
    const result = receipt(await call({ path: '/data/post.pdf', to: '/data/post.jpg', dpi: 72 }))
    expect(result.images).toEqual([
      expect.objectContaining({ path: '/data/post.jpg', page: 1, width: 200, height: 100, format: 'jpeg' }),
    ])
  })

  it('refuses a page whose image would pass the pixel cap before drawing anything', async () => {
    const pdf = await PDFDocument.create()
    pdf.addPage([612, 792])
    pdf.addPage([14_000, 14_000])
    await workspace.writeFile('/data/huge.pdf', await pdf.save())
    const error = failure(await call({ path: '/data/huge.pdf', to: '/data/huge', dpi: 150 }))
    expect(error).toContain('Page 2 at 150 dpi would be')
    expect(error).toContain('lower dpi')
    expect(await workspace.exists('/data/huge')).toBe(false)
  })

  it('keeps existing images unless overwrite, then backs them up', async () => {
    const args = { path: '/data/three.pdf', to: '/data/again', pages: [1], dpi: 36 }
    receipt(await call(args))
    expect(failure(await call(args))).toContain('overwrite: true')
    const replaced = receipt(await call({ ...args, dpi: 72, overwrite: true }))
    expect(replaced.images[0]).toMatchObject({ width: 612, height: 792 })
    expect((await workspace.listBackups('/data/again/three-1.png')).length).toBe(1)
  })
})
