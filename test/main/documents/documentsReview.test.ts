import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { strFromU8, unzipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect } from 'vitest'
import { bodyParagraphs, paragraphText } from '../../../src/main/documents/review/paragraphs'
import { openWord } from '../../../src/main/documents/review/wordXml'
import { createToolSession, invoke, type ToolResult, type ToolSession } from '../../../src/main/tools'
import { loadBuiltinToolsets } from '../../../src/main/toolsHost'
import { createWorkspace, type Workspace } from '../../../src/main/workspace'
import { describeNeeding, findThirdParty } from '../../support/requirements'
import { tempDirs } from '../../support/tempDir'
import { itFast as it, itSoak } from '../../support/tier'
import { odtReview, officeConvert, pythonDocxView } from './officeReaders'
import { offerTemplate, reviewedContract } from './reviewFixture'

const dirs = tempDirs('bureau-docx-review-')
let workspace: Workspace
let session: ToolSession

interface Receipt {
  path: string
  changed: string
  paragraphs: Array<{ paragraph: number; before: string; after: string }>
  change_ids?: string[]
  comment_id?: string
  backup?: string
  placeholders?: Array<{ name: string; count: number }>
  controls?: Array<{ tag: string; type: string; value: string }>
  rows?: Array<{ name: string; rows: number }>
  unused?: string[]
}
interface Status {
  changes: Array<{ id: string; kind: string; author: string; text: string }>
  comments: Array<{ id: string; author: string; text: string; reply_to?: string; resolved: boolean }>
}

const call = (method: string, args: Record<string, unknown>): Promise<ToolResult> =>
  invoke(session, `documents_${method}`, args)
async function ok<T = Receipt>(method: string, args: Record<string, unknown>): Promise<T> {
  const result = await call(method, args)
  if (!result.ok) throw new Error(`${method} failed: ${result.error}`)
  return result.value as T
}
const status = (path: string) => ok<Status>('review_status', { path })
const bytesOf = async (path: string) => new Uint8Array(await workspace.readFile(path))
const documentXml = async (path: string) =>
  strFromU8(unzipSync(await bytesOf(path))['word/document.xml'] ?? new Uint8Array())

beforeAll(async () => {
  const base = await dirs.make()
  workspace = createWorkspace({ root: join(base, 'workspace') })
  session = createToolSession({ toolsets: await loadBuiltinToolsets(), workspace })
})

afterAll(async () => {
  await session?.dispose()
  await workspace?.close()
  await dirs.cleanup()
})

describe('Word review', () => {
  it('suggests an edit as a tracked change and keeps the other authors’ changes', async () => {
    await workspace.writeFile('/r/suggest.docx', reviewedContract())
    const receipt = await ok('suggest_edit', {
      path: '/r/suggest.docx',
      find: 'Acme Ltd',
      replace: 'Acme GmbH',
      author: 'Eve',
    })
    expect(receipt.change_ids).toHaveLength(2)
    expect(receipt.paragraphs).toEqual([
      {
        paragraph: 3,
        before: 'Acme Ltd is the Customer.{-- Really.--}',
        after: '{--Acme Ltd--}{++Acme GmbH++} is the Customer.{-- Really.--}',
      },
    ])
    const { changes } = await status('/r/suggest.docx')
    expect(changes.map((c) => `${c.author}:${c.kind}:${c.text}`)).toEqual([
      'Alice:deletion:30',
      'Alice:insertion:45',
      'Bob:insertion:correct ',
      'Eve:deletion:Acme Ltd',
      'Eve:insertion:Acme GmbH',
      'Bob:deletion: Really.',
    ])
  })

  it('accepts one author’s changes and leaves the others', async () => {
    await workspace.writeFile('/r/accept.docx', reviewedContract())
    const receipt = await ok('accept_changes', { path: '/r/accept.docx', author: 'Alice' })
    expect(receipt.changed).toBe('Accepted 2 tracked change(s): #1, #2.')
    expect(receipt.paragraphs[0]).toEqual({
      paragraph: 1,
      before: 'The Supplier shall deliver within {--30--}{++45++} days.',
      after: 'The Supplier shall deliver within 45 days.',
    })
    expect((await status('/r/accept.docx')).changes.map((c) => `${c.author}:${c.id}`)).toEqual([
      'Bob:3',
      'Bob:4',
    ])
    const rejected = await ok('reject_changes', { path: '/r/accept.docx', ids: ['3'] })
    expect(rejected.paragraphs[0]?.after).toBe('Payment is due on receipt of the invoice.')
    expect((await status('/r/accept.docx')).changes.map((c) => c.id)).toEqual(['4'])
    const missing = await call('reject_changes', { path: '/r/accept.docx', ids: ['99'] })
    expect(missing.ok).toBe(false)
    expect(missing.ok ? '' : missing.error).toMatch(/No tracked change with id 99/)
  })

  it('replaces text split across runs and keeps bold and italic', async () => {
    await workspace.writeFile('/r/replace.docx', reviewedContract())
    const receipt = await ok('find_replace', { path: '/r/replace.docx', find: 'Supplier', replace: 'Vendor' })
    expect(receipt.paragraphs[0]?.after).toBe('The Vendor shall deliver within {--30--}{++45++} days.')
    await ok('find_replace', {
      path: '/r/replace.docx',
      find: 'customer',
      replace: 'Client',
      match_case: false,
    })
    const xml = await documentXml('/r/replace.docx')
    expect(xml).toMatch(/<w:r><w:rPr><w:b\/><\/w:rPr><w:t xml:space="preserve">Vendor<\/w:t><\/w:r>/)
    expect(xml).toMatch(/<w:r><w:rPr><w:i\/><\/w:rPr><w:t xml:space="preserve">Client<\/w:t><\/w:r>/)
    expect(xml).not.toMatch(/Sup|plier|Cus|tomer/)
  })

  it('adds a comment, replies to it and resolves the thread', async () => {
    await workspace.writeFile('/r/comment.docx', reviewedContract())
    const added = await ok('add_comment', {
      path: '/r/comment.docx',
      anchor_text: 'deliver within',
      text: 'Which calendar?',
      author: 'Eve',
    })
    expect(added.comment_id).toBe('9')
    const reply = await ok('reply_to_comment', {
      path: '/r/comment.docx',
      comment_id: 'c9',
      text: 'Business days.',
    })
    await ok('resolve_comment', { path: '/r/comment.docx', comment_id: added.comment_id })
    const { comments } = await status('/r/comment.docx')
    expect(comments).toEqual([
      { id: '7', author: 'Carol', text: 'Too short?', resolved: false },
      { id: '8', author: 'Dan', text: 'No, standard.', reply_to: '7', resolved: false },
      { id: '9', author: 'Eve', text: 'Which calendar?', resolved: true },
      { id: reply.comment_id, author: 'Bureau', text: 'Business days.', reply_to: '9', resolved: false },
    ])
    const xml = await documentXml('/r/comment.docx')
    expect(xml).toMatch(/<w:commentRangeStart w:id="9"\/>.*deliver.*within.*<w:commentRangeEnd w:id="9"\/>/)
  })

  it('fills placeholders, content controls and a repeated row', async () => {
    await workspace.writeFile('/t/offer.docx', offerTemplate())
    const receipt = await ok('fill_template', {
      path: '/out/jane.docx',
      template: '/t/offer.docx',
      values: {
        name: 'Jane Roe',
        start: '2025-03-01',
        manager: 'Sam Poe',
        signed: '2025-02-10',
        remote: true,
        items: [
          { what: 'Laptop', qty: 1 },
          { what: 'Phone', qty: 2 },
          { what: 'Desk', qty: 1 },
        ],
        extra: 'x',
      },
    })
    expect(receipt.rows).toEqual([{ name: 'items', rows: 3 }])
    expect(receipt.controls?.map((c) => `${c.tag}:${c.type}:${c.value}`)).toEqual([
      'manager:text:Sam Poe',
      'signed:date:2025-02-10',
      'remote:checkbox:\u2612',
    ])
    expect(receipt.unused).toEqual(['extra'])
    expect(receipt.paragraphs.map((p) => p.after)).toEqual(
      expect.arrayContaining([
        'Dear Jane Roe,',
        'Your start date is 2025-03-01.',
        'Laptop',
        'Phone',
        'Desk',
        '2',
      ]),
    )
    const xml = await documentXml('/out/jane.docx')
    expect(xml).not.toContain('{{')
    expect(xml).toContain('<w14:checked w14:val="1"/>')
    expect(xml).toMatch(/<w:b\/><\/w:rPr><w:t xml:space="preserve">2025-03-01</)
    expect(xml).not.toContain('showingPlcHdr')
    // The template itself is untouched.
    expect(await documentXml('/t/offer.docx')).toContain('{{start}}')
  })
})

describe('Word review: bad input loses nothing', () => {
  it('refuses an anchor that is not there, a missing value, a damaged file, a wrong extension', async () => {
    await workspace.writeFile('/bad/contract.docx', reviewedContract())
    await workspace.writeFile('/bad/offer.docx', offerTemplate())
    await workspace.writeFile('/bad/broken.docx', reviewedContract().slice(0, 900))
    const before = await bytesOf('/bad/contract.docx')
    const anchor = await call('add_comment', {
      path: '/bad/contract.docx',
      anchor_text: 'force majeure',
      text: 'x',
    })
    expect(anchor.ok ? '' : anchor.error).toMatch(
      /"force majeure" is not in the document's text; nothing was changed/,
    )
    const edit = await call('suggest_edit', { path: '/bad/contract.docx', find: '30', replace: '60' })
    expect(edit.ok ? '' : edit.error).toMatch(
      /"30" is not in the document's text \(deleted text does not count\)/,
    )
    expect(await bytesOf('/bad/contract.docx')).toEqual(before)
    const missing = await call('fill_template', { path: '/bad/offer.docx', values: { name: 'Jo' } })
    expect(missing.ok ? '' : missing.error).toMatch(
      /No value for the placeholders \{\{start\}\}, \{\{items\.what\}\}, \{\{items\.qty\}\}|No value for the placeholders/,
    )
    expect(missing.ok ? '' : missing.error).toContain('{{start}}')
    expect(await documentXml('/bad/offer.docx')).toContain('{{na')
    const broken = await call('accept_changes', { path: '/bad/broken.docx' })
    expect(broken.ok ? '' : broken.error).toMatch(/damaged/)
    const wrong = await call('find_replace', { path: '/bad/notes.txt', find: 'a', replace: 'b' })
    expect(wrong.ok ? '' : wrong.error).toMatch(/not a Word document/)
  })
})

describeNeeding(['soffice', 'pythonDocx'], 'Word review read by LibreOffice and python-docx', () => {
  itSoak('both readers see the tracked changes and comments Bureau wrote', { timeout: 240_000 }, async () => {
    await workspace.writeFile('/x/contract.docx', reviewedContract())
    await ok('suggest_edit', { path: '/x/contract.docx', find: 'Supplier', replace: 'Vendor', author: 'Eve' })
    await ok('add_comment', {
      path: '/x/contract.docx',
      anchor_text: 'invoice',
      text: 'Which invoice?',
      author: 'Eve',
    })
    await ok('accept_changes', { path: '/x/contract.docx', author: 'Alice' })
    await workspace.writeFile('/x/offer.docx', offerTemplate())
    await ok('fill_template', {
      path: '/x/filled.docx',
      template: '/x/offer.docx',
      values: {
        name: 'Jane',
        start: 'Monday',
        manager: 'Sam',
        signed: '2025-02-10',
        remote: false,
        items: [{ what: 'Pen', qty: 3 }],
      },
    })
    const corpus = await reviewCorpus()
    const dir = await dirs.make()
    const odt = await officeConvert(
      {
        contract: { bytes: await bytesOf('/x/contract.docx'), ext: 'docx' },
        filled: { bytes: await bytesOf('/x/filled.docx'), ext: 'docx' },
        ...Object.fromEntries(corpus.map(([name, bytes]) => [name, { bytes, ext: 'docx' }])),
      },
      dir,
      'odt',
    )
    for (const [name] of corpus) {
      const seen = await odtReview(odt[name] as string)
      expect(
        seen.changes
          .filter((c) => c.author === 'Eve')
          .map((c) => c.kind)
          .sort(),
        name,
      ).toEqual(['deletion', 'insertion'])
      expect(
        seen.comments.filter((c) => c.author === 'Eve'),
        name,
      ).toEqual([{ author: 'Eve', text: 'Checked.' }])
      const python = await pythonDocxView(join(workspace.root, 'corpus', `${name}.docx`))
      expect(
        python.ins.some((c) => c.author === 'Eve' && c.text === 'REVIEWED'),
        name,
      ).toBe(true)
    }
    const review = await odtReview(odt.contract as string)
    expect(review.changes).toEqual(
      expect.arrayContaining([
        { kind: 'deletion', author: 'Eve' },
        { kind: 'insertion', author: 'Eve' },
        { kind: 'insertion', author: 'Bob' },
        { kind: 'deletion', author: 'Bob' },
      ]),
    )
    expect(review.changes.some((c) => c.author === 'Alice')).toBe(false)
    expect(review.comments).toEqual(
      expect.arrayContaining([
        { author: 'Carol', text: 'Too short?' },
        { author: 'Eve', text: 'Which invoice?' },
      ]),
    )
    const filled = await odtReview(odt.filled as string)
    expect(filled.text).toContain('Dear Jane,')
    expect(filled.text).toContain('Pen')

    const view = await pythonDocxView(join(workspace.root, 'x', 'contract.docx'))
    expect(view.del).toEqual(
      expect.arrayContaining([expect.objectContaining({ author: 'Eve', text: 'Supplier' })]),
    )
    expect(view.ins).toEqual(
      expect.arrayContaining([expect.objectContaining({ author: 'Eve', text: 'Vendor' })]),
    )
    expect(view.ins.concat(view.del).some((c) => c.author === 'Alice')).toBe(false)
    expect(view.comments.map((c) => `${c.author}: ${c.text}`)).toEqual(
      expect.arrayContaining(['Carol: Too short?', 'Eve: Which invoice?']),
    )
    expect(view.paragraphs[0]).toBe('The Vendor shall deliver within 45 days.')
  })
})

const CORPUS = ['test.docx', 'test_with_comment.docx', 'rlink.docx', 'equations.docx']

/**
 * The review methods on the third-party corpus's Word files (those present): a suggested edit of a word, a
 * comment on another, a find/replace of a third. Returns each result for the independent readers.
 */
async function reviewCorpus(): Promise<Array<[string, Uint8Array]>> {
  const done: Array<[string, Uint8Array]> = []
  for (const file of CORPUS) {
    const source = findThirdParty('corpus', 'convert', file)
    if (!source) continue
    const name = file.replace(/\.docx$/, '')
    const path = `/corpus/${name}.docx`
    await workspace.writeFile(path, await readFile(source))
    const words = new Set<string>()
    for (const p of bodyParagraphs(openWord(await bytesOf(path), path).doc))
      for (const [word] of paragraphText(p).text.matchAll(/\b[A-Za-z]{3,}\b/g)) words.add(word)
    const [first, second, third] = [...words]
    expect(third, `${file} has three words to edit`).toBeDefined()
    await ok('suggest_edit', {
      path,
      find: first,
      replace: 'REVIEWED',
      author: 'Eve',
      occurrence: 1,
      whole_word: true,
    })
    await ok('add_comment', { path, anchor_text: second, text: 'Checked.', author: 'Eve' })
    await ok('find_replace', { path, find: third, replace: third?.toUpperCase(), whole_word: true })
    done.push([name, await bytesOf(path)])
  }
  return done
}
