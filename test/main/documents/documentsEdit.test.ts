import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { strFromU8, unzipSync, zipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createToolSession, invoke, type ToolResult, type ToolSession } from '../../../src/main/tools'
import { loadBuiltinToolsets } from '../../../src/main/toolsHost'
import { createWorkspace, type Workspace } from '../../../src/main/workspace'
import { fixturePath } from '../../support/fixtures'
import { describeNeeding, thirdPartyPath } from '../../support/requirements'
import { tempDirs } from '../../support/tempDir'
import { inOrder, libreOfficeConvert } from './readers'

const dirs = tempDirs('bureau-docx-edit-')
const SLOW = 240_000
let workspace: Workspace
let session: ToolSession
let scratch: string

interface EditReceipt {
  path: string
  changed: string
  heading?: string
  removed_blocks: number
  added_blocks: number
  tables: number
  diagrams: number
  images: number
  warnings: string[]
  backup?: string
  version?: string
}

const REPORT = [
  '# Report',
  '## Budget',
  'Old budget text.',
  '### Detail',
  'Old detail.',
  '## Staff',
  'Staff text.',
  '![chart](chart.png)',
].join('\n\n')

async function call(method: string, args: Record<string, unknown>): Promise<ToolResult> {
  return invoke(session, `documents_${method}`, args)
}
async function edit(method: string, args: Record<string, unknown>): Promise<EditReceipt> {
  const result = await call(method, args)
  if (!result.ok) throw new Error(`${method} failed: ${result.error}`)
  return result.value as EditReceipt
}
const parts = async (path: string) => unzipSync(new Uint8Array(await workspace.readFile(path)))
const documentXml = async (path: string) =>
  strFromU8((await parts(path))['word/document.xml'] ?? new Uint8Array())

/** What differs between two strings once their common prefix and suffix are set aside. */
function difference(before: string, after: string): { removed: string; added: string } {
  let p = 0
  while (p < before.length && before[p] === after[p]) p += 1
  let s = 0
  while (s < before.length - p && before[before.length - 1 - s] === after[after.length - 1 - s]) s += 1
  return { removed: before.slice(p, before.length - s), added: after.slice(p, after.length - s) }
}

const originals: Record<string, Record<string, Uint8Array>> = {}
const originalXml: Record<string, string> = {}
const receipts: Record<string, EditReceipt> = {}
let texts: Record<string, string> = {}

// Edits a document Word wrote (markitdown's test.docx, from the third-party folder) and one Bureau wrote;
// LibreOffice reads both back.
describeNeeding(['soffice', 'pdftotext', { thirdParty: 'corpus/convert' }], 'editing Word documents', () => {
  beforeAll(async () => {
    const base = await dirs.make()
    scratch = join(base, 'scratch')
    workspace = createWorkspace({ root: join(base, 'workspace') })
    session = createToolSession({ toolsets: await loadBuiltinToolsets(), workspace })
    await workspace.writeFile('/edit/chart.png', await readFile(fixturePath('documents', 'chart.png')))
    await workspace.writeFile(
      '/edit/word.docx',
      await readFile(thirdPartyPath('corpus', 'convert', 'test.docx')),
    )
    const made = await call('create_docx', { path: '/edit/report.docx', markdown: REPORT })
    if (!made.ok) throw new Error(made.error)
    for (const path of ['/edit/word.docx', '/edit/report.docx']) {
      originals[path] = await parts(path)
      originalXml[path] = await documentXml(path)
    }
    receipts.replace = await edit('replace_section', {
      path: '/edit/report.docx',
      heading: 'budget',
      markdown: 'New budget: **120,000 EUR**.\n\n1. Rent\n2. Staff',
    })
    receipts.appendSection = await edit('append_docx', {
      path: '/edit/report.docx',
      heading: 'Staff',
      markdown: 'Two hires in May.',
    })
    // A document Word wrote (localised style ids, a picture, no list definitions yet).
    receipts.word = await edit('append_docx', {
      path: '/edit/word.docx',
      markdown: [
        '## Appendix',
        '- first point\n- second point',
        '| Name | Role |\n|---|---|\n| Ada | Chair |',
        '```mermaid\nflowchart LR\n  Plan --> Ship\n```',
        '[project](https://example.org/bureau)',
      ].join('\n\n'),
    })
    receipts.wordSection = await edit('append_docx', {
      path: '/edit/word.docx',
      heading: 'Abstract',
      markdown: 'Added to the abstract.',
    })
    const converted = await libreOfficeConvert(
      {
        report: new Uint8Array(await workspace.readFile('/edit/report.docx')),
        word: new Uint8Array(await workspace.readFile('/edit/word.docx')),
      },
      scratch,
      'txt',
    )
    texts = {
      report: (await readFile(converted.report ?? '', 'utf8')).replace(/\s+/g, ' '),
      word: (await readFile(converted.word ?? '', 'utf8')).replace(/\s+/g, ' '),
    }
  }, SLOW)

  afterAll(async () => {
    await session?.dispose()
    await workspace?.close()
    await dirs.cleanup()
  })

  describe('replace_section', () => {
    it('replaces what is under the heading up to the next heading of the same level, and says so', () => {
      const r = receipts.replace
      expect(r?.heading).toBe('Budget')
      // "Old budget text.", the "Detail" heading and its paragraph.
      expect(r?.removed_blocks).toBe(3)
      expect(r?.added_blocks).toBe(3)
      expect(r?.changed).toBe('Replaced 3 block(s) under "Budget" with 3 new block(s) (before "Staff").')
      expect(r?.backup).toMatch(/\.bak$/)
      expect(r?.version).toBeTruthy()
    })

    it('LibreOffice reads the edited file in order, the old section gone', () => {
      const text = texts.report ?? ''
      expect(
        inOrder(text, [
          'Report',
          'Budget',
          'New budget: 120,000 EUR.',
          'Rent',
          'Staff',
          'Staff text.',
          'Two hires in May.',
        ]),
      ).toEqual([])
      expect(text).not.toContain('Old budget text')
      expect(text).not.toContain('Old detail')
    })

    it('keeps the rest of document.xml character for character and every other part as it was', async () => {
      // The backup taken by the next edit holds the file as replace_section left it.
      const replaced = unzipSync(
        new Uint8Array(await workspace.readFile(receipts.appendSection?.backup ?? '')),
      )
      const after = strFromU8(replaced['word/document.xml'] ?? new Uint8Array())
      const { removed, added } = difference(originalXml['/edit/report.docx'] ?? '', after)
      expect(removed).toContain('Old budget text.')
      expect(removed).toContain('Old detail.')
      expect(removed).not.toContain('Staff text.')
      expect(added).toContain('New budget')
      expect(added).not.toContain('Staff text.')
      const now = await parts('/edit/report.docx')
      const before = originals['/edit/report.docx'] ?? {}
      // The footer, the picture, settings: same bytes. Only the body and the list definitions changed.
      for (const [name, bytes] of Object.entries(before))
        if (!['word/document.xml', 'word/numbering.xml'].includes(name))
          expect([name, now[name]]).toEqual([name, bytes])
      expect(Object.keys(now).filter((n) => n.startsWith('word/media/') && !n.endsWith('/'))).toHaveLength(1)
    })

    it('versions every edit: the backup holds the previous file', async () => {
      const backup = receipts.appendSection?.backup ?? ''
      const previous = unzipSync(new Uint8Array(await workspace.readFile(backup)))
      expect(strFromU8(previous['word/document.xml'] ?? new Uint8Array())).toContain('New budget')
      expect(strFromU8(previous['word/document.xml'] ?? new Uint8Array())).not.toContain('Two hires')
    })
  })

  describe('append_docx', () => {
    it('appends lists, a table, a drawn diagram and a link to a document Word wrote', () => {
      const r = receipts.word
      expect(r?.changed).toBe('Added 7 block(s) at the end of the document.')
      expect(r?.tables).toBe(1)
      expect(r?.diagrams).toBe(1)
      expect(r?.warnings).toEqual([])
      expect(receipts.wordSection?.changed).toBe(
        'Added 1 block(s) at the end of the section "Abstract" (before "Introduction").',
      )
    })

    it('LibreOffice opens it with the old text and the new blocks where they were put', () => {
      const text = texts.word ?? ''
      expect(
        inOrder(text, [
          'Abstract',
          'Added to the abstract.',
          'Introduction',
          'Appendix',
          'first point',
          'second point',
          'Ada',
          'Chair',
          'project',
        ]),
      ).toEqual([])
    })

    it('carries the picture, the list definitions and the link into the package; old parts unchanged', async () => {
      const now = await parts('/edit/word.docx')
      const before = originals['/edit/word.docx'] ?? {}
      expect(now['word/media/image1.png']).toEqual(before['word/media/image1.png'])
      // Styles the document lacks are added; none of its own is touched.
      const styles = difference(
        strFromU8(before['word/styles.xml'] ?? new Uint8Array()),
        strFromU8(now['word/styles.xml'] ?? new Uint8Array()),
      )
      expect(styles.removed).toBe('')
      expect(styles.added).toMatch(/^<?w:style /)
      expect(now['word/media/bureau-1.png']?.length).toBeGreaterThan(1000)
      expect(strFromU8(now['word/numbering.xml'] ?? new Uint8Array())).toContain('<w:num w:numId="1">')
      const rels = strFromU8(now['word/_rels/document.xml.rels'] ?? new Uint8Array())
      expect(rels).toContain('Target="media/bureau-1.png"')
      expect(rels).toContain('Target="https://example.org/bureau"')
      expect(strFromU8(now['[Content_Types].xml'] ?? new Uint8Array())).toContain('/word/numbering.xml')
      // The localised heading style of the document ("heading 2" has id "2" there) is used, not a copy.
      expect(await documentXml('/edit/word.docx')).toContain('<w:pStyle w:val="2"/></w:pPr><w:bookmarkStart')
    })
  })

  describe('bad input loses nothing', () => {
    async function refused(method: string, args: Record<string, unknown>, pattern: RegExp) {
      const path = String(args.path)
      const before = await workspace.readFile(path).catch(() => undefined)
      const result = await call(method, args)
      expect(result.ok).toBe(false)
      if (!result.ok) expect(result.error).toMatch(pattern)
      if (before) expect(await workspace.readFile(path)).toEqual(before)
    }

    it('a heading that does not exist: the error lists the headings', async () => {
      await refused(
        'replace_section',
        { path: '/edit/report.docx', heading: 'Budgett', markdown: 'x' },
        /No heading "Budgett".*Its headings: # Report; ## Budget; ## Staff/,
      )
    })

    it('a damaged docx, a .doc, a password-protected file (edit and template), footnotes', async () => {
      const good = new Uint8Array(await workspace.readFile('/edit/report.docx'))
      await workspace.writeFile('/bad/truncated.docx', good.slice(0, 2000))
      const broken = unzipSync(good)
      broken['word/document.xml'] = new TextEncoder().encode('<w:document><w:body><w:p></w:body>')
      await workspace.writeFile('/bad/malformed.docx', zipSync(broken))
      await workspace.writeFile('/bad/minutes.doc', await readFile(fixturePath('documents', 'minutes.doc')))
      // A real password-protected .docx (ECMA-376 agile encryption; see test/fixtures/README.md).
      await workspace.writeFile(
        '/bad/protected.docx',
        await readFile(fixturePath('documents', 'encrypted.docx')),
      )
      await refused('append_docx', { path: '/bad/truncated.docx', markdown: 'x' }, /damaged/)
      await refused(
        'append_docx',
        { path: '/bad/malformed.docx', markdown: 'x' },
        /damaged \(word\/document\.xml/,
      )
      await refused('append_docx', { path: '/bad/minutes.doc', markdown: 'x' }, /Word 97-2003 \(\.doc\)/)
      const PROTECTED = /protected\.docx is password-protected; remove the password in Word .* and try again/
      await refused('append_docx', { path: '/bad/protected.docx', markdown: 'x' }, PROTECTED)
      await refused(
        'replace_section',
        { path: '/bad/protected.docx', heading: 'Minutes', markdown: 'x' },
        PROTECTED,
      )
      const asTemplate = await call('create_docx', {
        path: '/bad/from-template.docx',
        markdown: '# X',
        template: '/bad/protected.docx',
      })
      expect(asTemplate.ok).toBe(false)
      if (!asTemplate.ok)
        expect(asTemplate.error).toMatch(
          /Template \/bad\/protected\.docx is password-protected; remove the password in Word/,
        )
      expect(await workspace.exists('/bad/from-template.docx')).toBe(false)
      await refused(
        'append_docx',
        { path: '/edit/report.docx', markdown: 'x[^1]\n\n[^1]: note' },
        /Footnotes/,
      )
      await refused('append_docx', { path: '/edit/chart.png', markdown: 'x' }, /not a Word document/)
    })
  })
})
