import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, expect } from 'vitest'
import { createToolSession, invoke, type ToolResult, type ToolSession } from '../../../src/main/tools'
import { loadBuiltinToolsets } from '../../../src/main/toolsHost'
import { createWorkspace, type Workspace } from '../../../src/main/workspace'
import { describeNeeding } from '../../support/requirements'
import { tempDirs } from '../../support/tempDir'
import { itFast as it } from '../../support/tier'
import { del, ins, para, reviewDocx, run, withHeaderFooter } from './reviewFixture'

const exec = promisify(execFile)
const dirs = tempDirs('bureau-docx-headers-')
let workspace: Workspace
let session: ToolSession

interface Receipt {
  changed: string
  paragraphs: Array<{ part?: string; paragraph: number; before: string; after: string }>
  change_ids?: string[]
}
interface Status {
  changes: Array<{ id: string; author: string; text: string; part?: string }>
}

const call = (method: string, args: Record<string, unknown>): Promise<ToolResult> =>
  invoke(session, `documents_${method}`, args)
async function ok<T = Receipt>(method: string, args: Record<string, unknown>): Promise<T> {
  const result = await call(method, args)
  if (!result.ok) throw new Error(`${method} failed: ${result.error}`)
  return result.value as T
}

/** Debian's python-docx opens the file; the section's header and footer XML give the text and changes. */
const HEADER_READER = `
import json, sys, docx
W = '{http://schemas.openxmlformats.org/wordprocessingml/2006/main}'
d = docx.Document(sys.argv[1])
out = {}
for name, part in (('header', d.sections[0].header), ('footer', d.sections[0].footer)):
    el = part._element
    out[name] = {
        'text': [''.join(t.text or '' for t in p.iter(W + 't')) for p in el.iter(W + 'p')],
        'ins': [[e.get(W + 'author'), ''.join(t.text or '' for t in e.iter(W + 't'))] for e in el.iter(W + 'ins')],
        'del': [[e.get(W + 'author'), ''.join(t.text or '' for t in e.iter(W + 'delText'))] for e in el.iter(W + 'del')],
    }
print(json.dumps(out))
`

const contract = () =>
  withHeaderFooter(
    reviewDocx(para(run('The Acme Ltd contract.'))),
    para(
      run('Draft '),
      del(11, 'Alice', 'v1'),
      ins(12, 'Alice', 'v2'),
      run(' - Acme Ltd confidential'),
      ins(13, 'Bob', ' (internal)'),
    ),
    para(run('Footer: Acme Ltd '), ins(21, 'Alice', '2024'), del(22, 'Bob', ' copyright')),
  )

describeNeeding(['pythonDocx'], 'Review marks in headers and footers', () => {
  beforeAll(async () => {
    const base = await dirs.make()
    workspace = createWorkspace({ root: join(base, 'workspace') })
    session = createToolSession({ toolsets: await loadBuiltinToolsets(), workspace })
  }, 120_000)
  afterAll(async () => {
    await session?.dispose()
    await workspace?.close()
    await dirs.cleanup()
  })

  it('lists, suggests, replaces, accepts and rejects in headers and footers, naming the part', async () => {
    const path = '/review/headers.docx'
    await workspace.writeFile(path, contract())
    const before = await ok<Status>('review_status', { path })
    expect(before.changes.map((c) => [c.part, c.id, c.author])).toEqual([
      ['header1', '11', 'Alice'],
      ['header1', '12', 'Alice'],
      ['header1', '13', 'Bob'],
      ['footer1', '21', 'Alice'],
      ['footer1', '22', 'Bob'],
    ])

    const suggested = await ok('suggest_edit', { path, find: 'Draft', replace: 'Final', author: 'Carol' })
    expect(suggested.paragraphs).toEqual([
      {
        part: 'header1',
        paragraph: 1,
        before: 'Draft {--v1--}{++v2++} - Acme Ltd confidential{++ (internal)++}',
        after: '{--Draft--}{++Final++} {--v1--}{++v2++} - Acme Ltd confidential{++ (internal)++}',
      },
    ])
    expect(suggested.change_ids).toHaveLength(2)
    expect(Number(suggested.change_ids?.[0])).toBeGreaterThan(22)

    const replaced = await ok('find_replace', { path, find: 'Acme Ltd', replace: 'Acme GmbH' })
    expect(replaced.paragraphs.map((p) => [p.part, p.after])).toEqual([
      [undefined, 'The Acme GmbH contract.'],
      ['header1', '{--Draft--}{++Final++} {--v1--}{++v2++} - Acme GmbH confidential{++ (internal)++}'],
      ['footer1', 'Footer: Acme GmbH {++2024++}{-- copyright--}'],
    ])

    const bodyOnly = await call('find_replace', { path, find: 'confidential', replace: 'open', part: 'body' })
    expect(bodyOnly.ok ? '' : bodyOnly.error).toMatch(
      /"confidential" is not in the document.*nothing was changed/,
    )

    const accepted = await ok('accept_changes', { path, author: 'Alice', part: 'headers' })
    expect(accepted.changed).toBe('Accepted 2 tracked change(s): #11, #12.')
    expect(accepted.paragraphs[0]?.part).toBe('header1')
    const rejected = await ok('reject_changes', { path, author: 'Bob', part: 'footers' })
    expect(rejected.changed).toBe('Rejected 1 tracked change(s): #22.')
    expect(rejected.paragraphs).toEqual([
      {
        part: 'footer1',
        paragraph: 1,
        before: 'Footer: Acme GmbH {++2024++}{-- copyright--}',
        after: 'Footer: Acme GmbH {++2024++} copyright',
      },
    ])
    const after = await ok<Status>('review_status', { path })
    expect(after.changes.map((c) => [c.part, c.author, c.text])).toEqual([
      ['header1', 'Carol', 'Draft'],
      ['header1', 'Carol', 'Final'],
      ['header1', 'Bob', ' (internal)'],
      ['footer1', 'Alice', '2024'],
    ])

    const file = join(workspace.root, 'review', 'headers.docx')
    const { stdout } = await exec('/usr/bin/python3', ['-c', HEADER_READER, file])
    const seen = JSON.parse(stdout) as Record<
      'header' | 'footer',
      { text: string[]; ins: string[][]; del: string[][] }
    >
    expect(seen.header.text).toEqual(['Final v2 - Acme GmbH confidential (internal)'])
    expect(seen.header.ins).toEqual([
      ['Carol', 'Final'],
      ['Bob', ' (internal)'],
    ])
    expect(seen.header.del).toEqual([['Carol', 'Draft']])
    expect(seen.footer.text).toEqual(['Footer: Acme GmbH 2024 copyright'])
    expect(seen.footer.ins).toEqual([['Alice', '2024']])
    expect(seen.footer.del).toEqual([])
  })
})
