import { afterAll, describe, expect, it } from 'vitest'
import type { KnowledgeStatus } from '../../../src/main/knowledge'
import { createKnowledgeToolset } from '../../../src/main/knowledge/toolset/knowledgeToolset'
import { searchNote } from '../../../src/main/knowledge/toolset/searchNote'
import { createToolSession, invoke } from '../../../src/main/tools'
import { knowledgeHarness, temps } from './harness'

afterAll(() => temps.cleanup())

const upToDate: KnowledgeStatus = {
  state: 'idle',
  done: 10,
  total: 10,
  files: 10,
  passages: 40,
  queued: 0,
  mode: 'bm25',
  errors: [],
  lastBuild: '2026-12-02T10:00:00.000Z',
  truncated: false,
  throttled: false,
}

describe('what knowledge_search says about how complete its results are', () => {
  it('says nothing when the index is up to date', () => {
    expect(searchNote(upToDate)).toBeUndefined()
  })

  it('gives the progress of a build under way, and whether more changes wait behind it', () => {
    expect(searchNote({ ...upToDate, state: 'indexing', done: 3 })).toBe(
      'Indexing: 3 of 10 files done; results may be incomplete.',
    )
    expect(searchNote({ ...upToDate, state: 'indexing', done: 3, queued: 2 })).toMatch(
      /3 of 10 files done, and more changes are waiting/,
    )
  })

  it('says when indexing is paused with work left, and nothing when paused with none', () => {
    expect(searchNote({ ...upToDate, state: 'paused', done: 4 })).toBe(
      'Indexing is paused (4 of 10 files done); files not indexed yet are not searched.',
    )
    expect(searchNote({ ...upToDate, state: 'paused', queued: 1 })).toMatch(
      /paused.*more changes are waiting/,
    )
    expect(searchNote({ ...upToDate, state: 'paused' })).toBeUndefined()
  })

  it('says when indexing failed, with the reason', () => {
    expect(searchNote({ ...upToDate, state: 'failed', message: 'disk full' })).toMatch(
      /^Indexing failed \(disk full\); results come from what was indexed before/,
    )
  })

  it('says when background indexing is off, and when there is no index at all', () => {
    expect(searchNote({ ...upToDate, state: 'off' })).toMatch(
      /off; results come from the index as last built \(2026-12-02/,
    )
    expect(searchNote({ ...upToDate, state: 'off', files: 0, lastBuild: undefined })).toMatch(
      /nothing has been indexed/,
    )
  })

  it('says nothing about indexing being off when the search brought the index up to date first', () => {
    expect(searchNote({ ...upToDate, state: 'off' }, true)).toBeUndefined()
    expect(searchNote({ ...upToDate, state: 'off', truncated: true }, true)).toMatch(/more files than/)
  })

  it('says when the workspace has more files than the index holds', () => {
    expect(searchNote({ ...upToDate, truncated: true })).toMatch(/more files than the index holds/)
  })

  async function searchThroughTool(h: Awaited<ReturnType<typeof knowledgeHarness>>) {
    const session = createToolSession({
      toolsets: [createKnowledgeToolset({ knowledge: () => h.knowledge })],
      workspace: h.workspace,
    })
    try {
      const result = await invoke(session, 'knowledge_search', { query: 'kiln apprentices' })
      expect(result.ok).toBe(true)
      return result.ok ? (result.value as { passages: unknown[]; indexing?: string }) : undefined
    } finally {
      await session.dispose()
    }
  }

  it('reaches the model through the real tool with a real index', async () => {
    // The harness's service never indexes in the background (state off), as `--no-index` runs do.
    const h = await knowledgeHarness({ 'papers/autogen.docx': 'report.docx' })
    try {
      await h.knowledge.build()
      const value = await searchThroughTool(h)
      expect(value?.passages.length).toBeGreaterThan(0)
      expect(value?.indexing).toMatch(
        /^Background indexing is off; results come from the index as last built/,
      )
    } finally {
      await h.close()
    }
  })

  it('an on-demand service (the CLI, an eval task) syncs before each search, so there is nothing to say', async () => {
    const h = await knowledgeHarness({ 'papers/autogen.docx': 'report.docx' }, { syncBeforeSearch: true })
    try {
      const value = await searchThroughTool(h)
      expect(value?.passages.length).toBeGreaterThan(0)
      expect(value?.indexing).toBeUndefined()
    } finally {
      await h.close()
    }
  })
})
