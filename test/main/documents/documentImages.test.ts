import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { decode as decodePng } from 'fast-png'
import { decode as decodeJpeg } from 'jpeg-js'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createToolSession, invoke, type ToolResult, type ToolSession } from '../../../src/main/tools'
import { loadBuiltinToolsets } from '../../../src/main/toolsHost'
import { createWorkspace, type Workspace } from '../../../src/main/workspace'
import { checkFileSignature, detectFileKind } from '../../../src/shared/files'
import { describeNeeding } from '../../support/requirements'
import { tempDirs } from '../../support/tempDir'
import { pdfPages } from './readers'

const run = promisify(execFile)
const dirs = tempDirs('bureau-document-images-')
const SLOW = 120_000
let root: string
let workspace: Workspace
let session: ToolSession
let server: Server
let origin: string
const requests: string[] = []

const call = (method: string, args: Record<string, unknown>) => invoke(session, `documents_${method}`, args)
function value<T = Record<string, unknown>>(result: ToolResult): T {
  if (!result.ok) expect.fail(`expected success, got: ${result.error}`)
  return result.value as T
}
function failure(result: ToolResult): string {
  if (result.ok) expect.fail(`expected a failure, got ${JSON.stringify(result.value)}`)
  return result.error
}

interface ImageReceipt {
  path: string
  format: string
  width: number
  height: number
  bytes: number
  diagrams?: number
  tables?: number
  warnings: string[]
}

/** Share of pixels darker than mid-grey, from RGB(A) data. */
function darkShare(data: ArrayLike<number>, channels: number): number {
  let dark = 0
  const pixels = data.length / channels
  for (let at = 0; at < data.length; at += channels) if ((data[at] as number) < 128) dark++
  return dark / pixels
}

/** Page sizes in points, as poppler reads them. */
async function pageSizes(path: string): Promise<[number, number][]> {
  const { stdout } = await run('pdfinfo', ['-f', '1', '-l', '100', path])
  return [...stdout.matchAll(/^Page\s+\d+ size:\s+([\d.]+) x ([\d.]+) pts/gm)].map((m) => [
    Number(m[1]),
    Number(m[2]),
  ])
}

describeNeeding(['chromium', 'pdftotext'], 'documents render_image and images_to_pdf', () => {
  beforeAll(async () => {
    root = join(await dirs.make(), 'workspace')
    workspace = createWorkspace({ root })
    session = createToolSession({ toolsets: await loadBuiltinToolsets(), workspace })
    await workspace.writeFile('/data/notes.jpg', 'a text file with an image name\n')
    server = createServer((request, response) => {
      requests.push(request.url ?? '')
      response.end('x')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  }, SLOW)
  afterAll(async () => {
    await session?.dispose()
    await workspace?.close()
    await new Promise((resolve) => server?.close(resolve))
    await dirs.cleanup()
  })

  it(
    'draws Markdown with a table and a diagram to a PNG of the asked width',
    async () => {
      const markdown =
        '# Revenues\n\n| Year | Revenue |\n|---|---:|\n| 2022 | 3,900,000 |\n| 2023 | 4,200,000 |\n\n' +
        '```mermaid\nflowchart LR\n  A[Plan] --> B[Ship]\n```\n'
      const receipt = value<ImageReceipt>(
        await call('render_image', { path: '/data/revenues.png', markdown }),
      )
      expect(receipt).toMatchObject({
        path: '/data/revenues.png',
        format: 'png',
        width: 800,
        tables: 1,
        diagrams: 1,
      })
      expect(receipt.warnings).toEqual([])
      const bytes = await readFile(join(root, 'data/revenues.png'))
      expect(checkFileSignature('revenues.png', bytes).matches).toBe(true)
      expect(bytes.length).toBe(receipt.bytes)
      const png = decodePng(bytes)
      expect([png.width, png.height]).toEqual([receipt.width, receipt.height])
      expect(receipt.height).toBeGreaterThan(200)
      const share = darkShare(png.data, png.channels ?? 3)
      // Text and table rules are drawn on white paper: some dark, mostly light.
      expect(share).toBeGreaterThan(0.002)
      expect(share).toBeLessThan(0.3)
    },
    SLOW,
  )

  it(
    'draws HTML to a JPEG; its scripts do not run and nothing is fetched',
    async () => {
      const html =
        '<!doctype html><html><head><title>t</title></head><body style="margin:0">' +
        '<div style="width:600px;height:150px;background:#000"></div>' +
        `<img src="${origin}/pixel.png"><link rel="stylesheet" href="${origin}/style.css">` +
        '<script>document.body.innerHTML = \'<div style="height:3000px"></div>\'</script></body></html>'
      const receipt = value<ImageReceipt>(
        await call('render_image', { path: '/data/welcome.jpg', html, width: 600 }),
      )
      expect(receipt).toMatchObject({ path: '/data/welcome.jpg', format: 'jpeg', width: 600 })
      expect(receipt.height).toBeLessThan(400)
      const bytes = await readFile(join(root, 'data/welcome.jpg'))
      expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff])
      const jpeg = decodeJpeg(bytes, { useTArray: true })
      expect([jpeg.width, jpeg.height]).toEqual([600, receipt.height])
      expect(jpeg.data[(75 * 600 + 300) * 4]).toBeLessThan(40)
      expect(requests).toEqual([])
    },
    SLOW,
  )

  it(
    'puts two images into a two-page PDF that pdfinfo reads, each page the size of its picture',
    async () => {
      const receipt = value<{ pages: number; images: { page_width_pt: number; page_height_pt: number }[] }>(
        await call('images_to_pdf', {
          path: '/data/both.pdf',
          images: ['/data/revenues.png', '/data/welcome.jpg'],
        }),
      )
      expect(receipt.pages).toBe(2)
      const path = join(root, 'data/both.pdf')
      expect(detectFileKind(await readFile(path))).toBe('pdf')
      expect(await pdfPages(path)).toBe(2)
      const sizes = await pageSizes(path)
      expect(sizes).toHaveLength(2)
      // Chromium's screenshots state no resolution: 96 pixels to the inch, 0.75 points a pixel.
      expect(sizes[0]?.[0]).toBe(600)
      expect(sizes[1]?.[0]).toBe(450)
      expect(receipt.images.map((i) => [i.page_width_pt, i.page_height_pt])).toEqual(
        sizes.map(([w, h]) => [expect.closeTo(w, 1), expect.closeTo(h, 1)]),
      )
    },
    SLOW,
  )

  it(
    'and convert pdf_to_images gives the pictures back at their pixel size',
    async () => {
      const pages = value<{ images: { width: number; height: number }[] }>(
        await invoke(session, 'convert_pdf_to_images', { path: '/data/both.pdf', to: '/data/back', dpi: 96 }),
      )
      const original = decodePng(await readFile(join(root, 'data/revenues.png')))
      expect(pages.images).toHaveLength(2)
      expect(pages.images[0]).toMatchObject({ width: original.width, height: original.height })
      expect(pages.images[1]?.width).toBe(600)
    },
    SLOW,
  )

  it(
    'refuses bad input with a clear error and writes nothing',
    async () => {
      const cases: [string, Record<string, unknown>, RegExp][] = [
        ['render_image', { path: '/out/a.gif', markdown: '# a' }, /\.png, \.jpg or \.jpeg/],
        [
          'render_image',
          { path: '/out/a.png', markdown: '# a', html: '<p>a</p>' },
          /exactly one of markdown or html/,
        ],
        ['render_image', { path: '/out/a.png' }, /exactly one of markdown or html/],
        ['render_image', { path: '/out/a.png', markdown: '# a', width: 50_000 }, /width/],
        [
          'render_image',
          { path: '/out/a.png', markdown: Array.from({ length: 2000 }, (_, i) => `Line ${i}`).join('\n\n') },
          /pixels tall .* the limit is 16000/,
        ],
        [
          'images_to_pdf',
          { path: '/out/a.pdf', images: ['/data/revenues.png', '/data/missing.png'] },
          /missing\.png/,
        ],
        ['images_to_pdf', { path: '/out/a.pdf', images: ['/data/notes.jpg'] }, /notes\.jpg is not an image/],
        [
          'images_to_pdf',
          { path: '/out/a.pdf', images: ['/data/both.pdf'] },
          /is a PDF file; images_to_pdf takes PNG and JPEG/,
        ],
        ['images_to_pdf', { path: '/out/a.docx', images: ['/data/revenues.png'] }, /must end in \.pdf/],
        ['images_to_pdf', { path: '/out/a.pdf', images: [] }, /images/],
      ]
      for (const [method, args, message] of cases) expect(failure(await call(method, args))).toMatch(message)
      expect(await workspace.exists('/out')).toBe(false)
      expect(failure(await call('render_image', { path: '/data/revenues.png', markdown: '# b' }))).toMatch(
        /overwrite: true/,
      )
    },
    SLOW,
  )
})
