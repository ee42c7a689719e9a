import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { unzipSync } from 'fflate'
import type { Root } from 'mdast'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { documentHtml } from '../../../src/main/documents/html/toHtml'
import type { DocumentAssets } from '../../../src/main/documents/markdown/assets'
import { estimateBlocks, estimateNesting, MAX_BLOCKS } from '../../../src/main/documents/markdown/blockCount'
import { createToolSession, invoke, type ToolResult, type ToolSession } from '../../../src/main/tools'
import { loadBuiltinToolsets } from '../../../src/main/toolsHost'
import { createWorkspace, type Workspace } from '../../../src/main/workspace'
import { describeNeeding } from '../../support/requirements'
import { tempDirs } from '../../support/tempDir'
import { pdfText } from './readers'

const dirs = tempDirs('bureau-documents-hostile-')
let root: string
let workspace: Workspace
let session: ToolSession

/** `sections` sections of 40 short paragraphs each, as the hostile pass wrote them. */
const sectioned = (sections: number) =>
  Array.from(
    { length: sections },
    (_, s) =>
      `## Section ${s + 1}\n\n${Array.from({ length: 40 }, (_, p) => `P ${p + 1} s ${s + 1}.`).join('\n\n')}`,
  ).join('\n\n')

const RAW_HTML = [
  '# Raw HTML',
  '<div align="center">\n\n**Centred** quarterly words\n\n</div>',
  '<p align="right">Right &amp; proper paragraph</p>',
  '<table><tr><th>Fruit</th><th>Crates</th></tr><tr><td>Apricots</td><td>37</td></tr></table>',
  '<script>document.title = "pwned"</script>\n<img src="x.png" onerror="alert(1)"><a href="javascript:alert(2)">harmless words</a>',
  'Closing paragraph.',
].join('\n\n')

const docxText = async (path: string) => {
  const files = unzipSync(new Uint8Array(await readFile(join(root, path))))
  return new TextDecoder()
    .decode(files['word/document.xml'])
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
}

describe('documents: very large Markdown', () => {
  it('counts blocks without parsing: fences hide their lines, continuation lines do not count', () => {
    expect(estimateBlocks(sectioned(2))).toBe(82)
    expect(estimateBlocks('a\nb\nc\n\n- x\n- y\n\n```\n# not\n\n# heading\n```\n| a |\n| - |\n| 1 |')).toBe(7)
    expect(estimateBlocks(sectioned(1_000))).toBeLessThanOrEqual(MAX_BLOCKS)
    expect(estimateBlocks(sectioned(2_500))).toBe(102_500)
  })

  it('measures how deep quotes and lists nest without parsing; fenced code does not count', () => {
    expect(estimateNesting('> a\n> > b\n\n- x\n  - y\n    - z\n\n```\n> > > > >\n```')).toBe(3)
    expect(estimateNesting(`${'>'.repeat(5_000)} deep`)).toBe(101)
    expect(estimateNesting('Plain text with > and - inside.')).toBe(0)
  })

  it('the print page of 150,000 blocks is built without overflowing the stack', () => {
    const tree: Root = {
      type: 'root',
      children: Array.from({ length: 150_000 }, (_, i) => ({
        type: 'paragraph' as const,
        children: [{ type: 'text' as const, value: `p${i}` }],
      })),
    }
    const assets: DocumentAssets = { images: new Map(), diagrams: new Map(), warnings: [] }
    const html = documentHtml(tree, assets, { toc: false, pageSize: 'A4', margins: '2cm' })
    expect(html).toContain('<p dir="auto">p149999</p>')
  }, 30_000)
})

describeNeeding(['chromium', 'pdftotext'], 'documents: hostile Markdown through the toolset', () => {
  beforeAll(async () => {
    root = join(await dirs.make(), 'workspace')
    workspace = createWorkspace({ root })
    session = createToolSession({ toolsets: await loadBuiltinToolsets(), workspace })
  }, 60_000)
  afterAll(async () => {
    await session?.dispose()
    await workspace?.close()
    await dirs.cleanup()
  })
  const call = (method: string, args: Record<string, unknown>): Promise<ToolResult> =>
    invoke(session, `documents_${method}`, args)

  it('2,500 sections x 40 paragraphs (PDF) and 5,000 (DOCX) are refused up front with a clear error, nothing written', async () => {
    for (const [method, path, sections] of [
      ['create_pdf', '/big.pdf', 2_500],
      ['create_docx', '/big.docx', 5_000],
    ] as const) {
      const result = await call(method, { path, markdown: sectioned(sections) })
      expect(result).toMatchObject({ ok: false, code: 'TOO_LARGE' })
      if (!result.ok)
        expect(result.error).toContain(
          `The Markdown has about ${(sections * 41).toLocaleString('en-US')} blocks (paragraphs, headings, list items, table rows); one document holds at most 50,000`,
        )
      expect(await workspace.exists(path)).toBe(false)
    }
  }, 30_000)

  it('5,000 nested quotes are refused up front, not parsed for a minute and then overflowing the stack', async () => {
    const result = await call('create_docx', { path: '/deep.docx', markdown: `${'>'.repeat(5_000)} deep` })
    expect(result).toMatchObject({ ok: false, code: 'TOO_LARGE' })
    if (!result.ok) expect(result.error).toContain('nests quotes or lists more than 100 levels deep')
    expect(await workspace.exists('/deep.docx')).toBe(false)
  }, 20_000)

  it('block-level HTML is rendered in the PDF (cleaned), and what is left out is named in warnings', async () => {
    const result = await call('create_pdf', { path: '/raw.pdf', markdown: RAW_HTML })
    expect(result.ok).toBe(true)
    const receipt = (result as { value: { warnings: string[] } }).value
    expect(receipt.warnings).toEqual([
      'raw HTML in the Markdown: <script>, <img> left out (documents keep formatting and layout tags only; pictures go in as ![alt](path))',
    ])
    const text = (await pdfText(join(root, 'raw.pdf'))).replace(/\s+/g, ' ')
    for (const words of [
      'Centred quarterly words',
      'Right & proper paragraph',
      'Fruit',
      'Apricots',
      '37',
      'harmless words',
      'Closing paragraph.',
    ])
      expect(text).toContain(words)
    expect(text).not.toContain('pwned')
  }, 60_000)

  it('block-level HTML in a DOCX is kept as its text, with a warning that its layout is not', async () => {
    const result = await call('create_docx', { path: '/raw.docx', markdown: RAW_HTML })
    expect(result.ok).toBe(true)
    const receipt = (result as { value: { warnings: string[] } }).value
    expect(receipt.warnings).toEqual([
      'raw HTML in the Markdown (4 blocks) is written as plain text in the DOCX: its text is kept, its layout (alignment, tables, formatting) is not',
    ])
    const text = await docxText('raw.docx')
    for (const words of [
      'Centred',
      'quarterly words',
      'Right &amp; proper paragraph',
      'Fruit | Crates',
      'Apricots | 37',
      'harmless words',
      'Closing paragraph.',
    ])
      expect(text).toContain(words)
    expect(text).not.toContain('pwned')
  }, 60_000)
})
