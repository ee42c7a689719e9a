import { copyFile, mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Converter, createAppConverter } from '../../../src/main/convert'
import type { OcrEngine } from '../../../src/main/convert/types'
import {
  createToolSession,
  getCatalog,
  runTerminalCommand,
  type ToolResult,
  type ToolSession,
  type Toolset,
} from '../../../src/main/tools'
import { loadBuiltinToolsets } from '../../../src/main/toolsHost'
import { createWorkspace, type Workspace } from '../../../src/main/workspace'
import { tempDirs } from '../../support/tempDir'
import { core } from './corpus'

const dirs = tempDirs('bureau-convert-toolset-')
let session: ToolSession
let workspace: Workspace
let converter: Converter
let toolsets: Toolset[]
const calls: string[] = []

const fakeOcr: OcrEngine = { recognize: async () => 'Text from the scan', dispose: async () => {} }

beforeAll(async () => {
  const base = await dirs.make()
  const root = join(base, 'workspace')
  await mkdir(join(root, 'docs'), { recursive: true })
  for (const name of ['report.docx', 'page.html', 'random.bin', 'scan.jpg'])
    await copyFile(core.path(name), join(root, 'docs', name))
  const docx = core.file('report.docx')
  await writeFile(join(root, 'docs', 'broken.docx'), docx.subarray(0, Math.floor(docx.length / 2)))
  // A document just outside the workspace: no path spelling may reach it.
  await copyFile(core.path('report.docx'), join(base, 'outside.docx'))
  workspace = createWorkspace({ root })
  const shared = createAppConverter({ ocr: fakeOcr })
  converter = {
    convert: (input, options) => {
      calls.push(input.name)
      return shared.convert(input, options)
    },
    stats: () => shared.stats(),
    dispose: () => shared.dispose(),
  }
  toolsets = await loadBuiltinToolsets({ convert: { converter: () => converter } })
  session = createToolSession({ toolsets, workspace })
})
afterAll(async () => {
  await session.dispose()
  await converter.dispose()
  await workspace.close()
  await dirs.cleanup()
})

const run = (command: string) => runTerminalCommand(session, command)

function value<T = Record<string, unknown>>(result: ToolResult): T {
  if (!result.ok) expect.fail(`expected success, got: ${result.error}`)
  return result.value as T
}

interface Receipt {
  path: string
  format: string
  page: number
  pages: number
  next_page?: number
  total_chars: number
  markdown: string
  warnings: string[]
}

describe('convert toolset', () => {
  it('is a built-in, offered as convert_to_markdown and convert_formats in API mode', async () => {
    const names = getCatalog(toolsets, 'api').tools.map((tool) => tool.function.name)
    expect(names).toEqual(expect.arrayContaining(['convert_to_markdown', 'convert_formats']))
  })

  it('files read refuses a .docx naming convert to_markdown, which then reads it', async () => {
    const refused = await run('files read /docs/report.docx')
    expect(refused.ok).toBe(false)
    if (!refused.ok) expect(refused.error).toContain('read it with convert to_markdown')
    const receipt = value<Receipt>(await run('convert to_markdown /docs/report.docx'))
    expect(receipt).toMatchObject({ path: '/docs/report.docx', format: 'docx', page: 1 })
    const vector = core.vectors.general.find((v) => v.filename === 'report.docx')
    for (const text of vector?.must_include ?? ['missing vector']) expect(receipt.markdown).toContain(text)
    for (const text of vector?.must_not_include ?? []) expect(receipt.markdown).not.toContain(text)
    expect(calls.at(-1)).toBe('report.docx')
  })

  it('pages the Markdown: next_page until the last page, pages join to the whole', async () => {
    const whole = await converter.convert({
      name: 'page.html',
      bytes: core.file('page.html'),
    })
    const parts: string[] = []
    let page: number | undefined = 1
    let pages = 0
    while (page !== undefined) {
      const receipt: Receipt = value<Receipt>(
        await run(`convert to_markdown /docs/page.html --max_chars 3000 --page ${page}`),
      )
      expect(receipt.page).toBe(page)
      expect(receipt.markdown.length).toBeLessThanOrEqual(3000)
      expect(receipt.total_chars).toBe(whole.markdown.length)
      parts.push(receipt.markdown)
      pages = receipt.pages
      page = receipt.next_page
    }
    expect(pages).toBeGreaterThan(3)
    expect(parts).toHaveLength(pages)
    expect(parts.join('')).toBe(whole.markdown)
    const past = await run(`convert to_markdown /docs/page.html --max_chars 3000 --page ${pages + 1}`)
    expect(past.ok).toBe(false)
    if (!past.ok) expect(past.error).toContain(`has ${pages} pages of Markdown`)
  })

  it('converts once: later pages come from the cache', async () => {
    const before = calls.length
    value(await run('convert to_markdown /docs/page.html --max_chars 3000 --page 2'))
    expect(calls.length).toBe(before + 1)
    // The shared converter answered from its cache (same result object), so paging costs no conversion.
    const a = await converter.convert({ name: 'x.html', bytes: core.file('page.html') })
    const b = await converter.convert({ name: 'x.html', bytes: core.file('page.html') })
    expect(b).toBe(a)
  })

  it("a damaged file gives the converter's clear error, naming the file and not the host path", async () => {
    const broken = await run('convert to_markdown /docs/broken.docx')
    if (broken.ok) expect.fail('a damaged .docx converted')
    expect(broken.error).toMatch(/Cannot convert "broken\.docx": .*damaged or truncated/)
    expect(broken.error).not.toContain(core.dir)
    const random = await run('convert to_markdown /docs/random.bin')
    expect(random.ok).toBe(false)
    if (!random.ok) expect(random.error).toContain('Cannot convert "random.bin"')
  })

  it.each([
    ['/../outside.docx', 'leaves-root'],
    ['../outside.docx', 'leaves-root'],
    ['/%2e%2e/outside.docx', 'percent-encoding'],
    ['file:///etc/passwd', 'url-scheme'],
  ])(
    'refuses the hostile path %s by the workspace rules (%s) before converting anything',
    async (path, rule) => {
      const before = calls.length
      const result = await run(`convert to_markdown '${path}'`)
      expect(result.ok).toBe(false)
      if (!result.ok) {
        expect(result.code).toBe('FORBIDDEN')
        expect(result.error).toContain(`Path refused (${rule})`)
      }
      expect(calls.length).toBe(before)
    },
  )

  it('reads an image with OCR when vision is off, and lists what it reads', async () => {
    const receipt = value<Receipt>(await run('convert to_markdown /docs/scan.jpg'))
    expect(receipt.format).toBe('image')
    expect(receipt.markdown).toContain('Text from the scan')
    const formats = value<{ formats: Array<{ format: string; extensions: string[] }> }>(
      await run('convert formats'),
    )
    expect(formats.formats.find((f) => f.format === 'docx')?.extensions).toContain('docx')
    expect(formats.formats.find((f) => f.format === 'image')?.extensions).toEqual(
      expect.arrayContaining(['png', 'jpg', 'tiff']),
    )
  })

  it('without the app converter, a session gets its own and disposes it at the end', async () => {
    const own = createToolSession({ toolsets: await loadBuiltinToolsets(), workspace })
    try {
      const receipt = value<Receipt>(await runTerminalCommand(own, 'convert to_markdown /docs/report.docx'))
      expect(receipt.format).toBe('docx')
    } finally {
      expect((await own.dispose()).errors).toEqual([])
    }
  })
})
