import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadTaskSet, shippedEvalDir } from '../../../src/main/eval'
import { describeReplay } from './replaySuite'

// The whole suite, replayed without a model: every reference solution must pass and every wrong
// solution must be rejected by its checker. The task list is read from the folder at collection time,
// so a missing or empty folder fails the file instead of running zero cases.
const evalDir = shippedEvalDir()
const taskSet = loadTaskSet(evalDir)

const KINDS = [
  'spreadsheet.total-column',
  'spreadsheet.fix-formula',
  'spreadsheet.sort-format',
  'spreadsheet.chart',
  'spreadsheet.merge-sheets',
  'spreadsheet.computed-answer',
  'convert.answer-pdf',
  'convert.answer-docx',
  'convert.pdf-table-to-xlsx',
  'convert.summary-structure',
  'documents.report-docx',
  'documents.markdown-to-pdf',
  'files.sort-by-type',
  'files.rename-pattern',
  'history.restore-deleted',
  'web.read-table',
  'web.fill-form',
  'web.follow-links',
  'multi.pdf-table-chart',
  'knowledge.find-fact',
  'email.answer-from-mail',
  'email.draft-reply',
  'mcp.answer-from-server',
  'mcp.server-to-sheet',
  'mcp.reserve-with-write-tool',
]

describe('the eval task set', () => {
  it('has at least 24 tasks covering every kind the issue lists, every toolset and every difficulty', () => {
    expect(taskSet.tasks.length).toBeGreaterThanOrEqual(24)
    const kinds = new Set(taskSet.tasks.map((t) => t.kind))
    for (const kind of KINDS) expect(kinds, kind).toContain(kind)
    const toolsets = new Set(taskSet.tasks.flatMap((t) => t.toolsets))
    expect([...toolsets].sort()).toEqual([
      'convert',
      'documents',
      'email',
      'files',
      'history',
      'knowledge',
      'mcp',
      'spreadsheet',
      'web',
    ])
    expect(new Set(taskSet.tasks.map((t) => t.difficulty))).toEqual(new Set(['easy', 'medium', 'hard']))
    expect(
      taskSet.tasks.filter((t) => t.toolsets.length > 1 && t.kind.startsWith('multi.')).length,
    ).toBeGreaterThanOrEqual(3)
    expect(taskSet.version).toBe('5')
    expect(taskSet.digest).toMatch(/^[0-9a-f]{12}$/)
  })

  it('fails loudly when the folder is missing, empty, or the filter matches nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bureau-eval-empty-'))
    try {
      expect(() => loadTaskSet(undefined)).toThrow(/eval task folder was not found/)
      expect(() => loadTaskSet(dir)).toThrow(/does not exist/)
      await mkdir(join(dir, 'tasks'))
      expect(() => loadTaskSet(dir)).toThrow(/has no tasks/)
      await mkdir(join(dir, 'tasks', 'broken'))
      expect(() => loadTaskSet(dir)).toThrow(/broken has no task.json/)
      expect(() => loadTaskSet(evalDir, 'no-such-task-*')).toThrow(
        /no eval task matches --tasks no-such-task-\*/,
      )
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('selects tasks by comma-separated globs', () => {
    const picked = loadTaskSet(evalDir, 'sheet-*,web-form').tasks.map((t) => t.id)
    expect(picked).toContain('web-form')
    expect(picked.filter((id) => id.startsWith('sheet-')).length).toBeGreaterThanOrEqual(6)
    expect(picked.every((id) => id === 'web-form' || id.startsWith('sheet-'))).toBe(true)
  })
})

// One task of each family in npm test; every task in the soak tier (suite.soak.test.ts).
describeReplay(
  'replaying a task of each family',
  evalDir,
  loadTaskSet(
    evalDir,
    'doc-answer-pdf,email-draft-reply,files-restore-version,knowledge-find-fact,mcp-stock-answer,multi-pdf-to-chart,sheet-chart,web-form',
  ),
)
