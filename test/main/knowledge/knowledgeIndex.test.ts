import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { workspaceIndexId } from '../../../src/main/knowledge'
import { fixturePath } from '../../support/fixtures'
import { knowledgeHarness, temps } from './harness'

afterAll(() => temps.cleanup())

const docs = {
  'reports/repair.pdf': 'report.pdf',
  'data/table.xlsx': 'sheet.xlsx',
  'slides/deck.pptx': 'deck.pptx',
  'papers/autogen.docx': 'report.docx',
}

describe('knowledge index (BM25, real converter and LanceDB)', () => {
  it('indexes every format with anchors and finds passages by their words', async () => {
    const h = await knowledgeHarness(docs)
    try {
      const report = await h.knowledge.build()
      expect(report.errors).toEqual([])
      expect(report.indexed).toBe(4)
      const pdf = await h.knowledge.search({
        query: 'annealed overnight brass frames',
        topK: 5,
        pathGlob: 'reports/**',
      })

      expect(pdf.mode).toBe('bm25')
      expect(pdf.passages[0]?.path).toBe('/reports/repair.pdf')
      expect(pdf.passages[0]?.anchor.page).toBeGreaterThanOrEqual(1)
      const sheet = await h.knowledge.search({
        query: 'Glassblower Apprentice Badge',
        topK: 5,
        pathGlob: '*.xlsx',
      })
      expect(sheet.passages[0]?.anchor.sheet).toBeDefined()
      expect(sheet.passages[0]?.anchor.rows).toMatch(/^\d+(-\d+)?$/)
      expect(sheet.passages.every((passage) => passage.path.endsWith('.xlsx'))).toBe(true)
      const slide = await h.knowledge.search({
        query: 'workshop moved in March apprentices',
        topK: 3,
        pathGlob: 'slides/**',
      })
      expect(slide.passages[0]?.anchor.slide).toBe(3)
      const docx = await h.knowledge.search({ query: 'record output smaller workshop', topK: 5 })
      expect(
        docx.passages.some(
          (p) => p.path === '/papers/autogen.docx' && p.anchor.headings.includes('Abstract'),
        ),
      ).toBe(true)
    } finally {
      await h.close()
    }
  })

  it('follows edits, renames, deletes and restores; unchanged files are not converted again', async () => {
    const h = await knowledgeHarness({ 'notes/a.md': 'book.epub' })
    try {
      await h.workspace.writeFile('/notes/plan.md', '# Plan\n\nThe zeppelin budget is 400 francs.\n')
      await h.knowledge.build()
      expect((await h.knowledge.search({ query: 'zeppelin', topK: 3 })).passages[0]?.path).toBe(
        '/notes/plan.md',
      )

      const again = await h.knowledge.build()
      expect(again.indexed).toBe(0)
      expect(again.unchanged).toBe(again.scanned)

      await h.workspace.writeFile('/notes/plan.md', '# Plan\n\nThe dirigible budget is 500 francs.\n')
      await h.knowledge.build(['/notes/plan.md'])
      expect((await h.knowledge.search({ query: 'zeppelin', topK: 3 })).passages).toEqual([])
      expect((await h.knowledge.search({ query: 'dirigible', topK: 3 })).passages[0]?.path).toBe(
        '/notes/plan.md',
      )

      await h.workspace.move('/notes/plan.md', '/archive/plan-old.md')
      await h.knowledge.build(['/notes/plan.md', '/archive/plan-old.md'])
      const moved = await h.knowledge.search({ query: 'dirigible', topK: 3 })
      expect(moved.passages.map((p) => p.path)).toEqual(['/archive/plan-old.md'])

      const deleted = await h.workspace.delete('/archive')
      await h.knowledge.build(['/archive'])
      expect((await h.knowledge.search({ query: 'dirigible', topK: 3 })).passages).toEqual([])

      await h.workspace.restoreDeleted(deleted.trashId)
      await h.knowledge.build(['/archive'])
      expect((await h.knowledge.search({ query: 'dirigible', topK: 3 })).passages[0]?.path).toBe(
        '/archive/plan-old.md',
      )
    } finally {
      await h.close()
    }
  })

  it('writes many files in a few table versions, not one write per file', async () => {
    const h = await knowledgeHarness({})
    try {
      // Written straight to disk: the workspace's history commits would cost more than the index.
      await mkdir(join(h.root, 'notes'))
      for (let n = 0; n < 60; n++)
        await writeFile(
          join(h.root, 'notes', `n${n}.md`),
          `# Note ${n}\n\nItem ${n} is the word quasar${n}.\n`,
        )
      const report = await h.knowledge.build()
      expect(report.indexed).toBe(60)
      const versions = join(
        h.dataDir,
        'index',
        workspaceIndexId(h.root),
        'lance',
        'chunks.lance',
        '_versions',
      )
      const afterBuild = (await readdir(versions)).length
      // create, one add, the full-text index, one optimize: per-file writes would make 120+.
      expect(afterBuild).toBeLessThanOrEqual(8)
      expect((await h.knowledge.search({ query: 'quasar42', topK: 3 })).passages[0]?.path).toBe(
        '/notes/n42.md',
      )
      await writeFile(join(h.root, 'notes', 'n7.md'), '# Note 7\n\nItem 7 is now the word pulsar.\n')
      await h.knowledge.build(['/notes/n7.md'])
      expect((await readdir(versions)).length - afterBuild).toBeLessThanOrEqual(2)
      expect((await h.knowledge.search({ query: 'pulsar', topK: 3 })).passages.map((p) => p.path)).toEqual([
        '/notes/n7.md',
      ])
      expect((await h.knowledge.search({ query: 'quasar7', topK: 3 })).passages).toEqual([])
    } finally {
      await h.close()
    }
  })

  it('reports corrupt and vanished files per file and indexes the rest', async () => {
    const h = await knowledgeHarness({ 'good.docx': 'report.docx', 'broken.pdf': 'random.bin' })
    try {
      const workbook = await readFile(fixturePath('core', 'sheet.xlsx'))
      await writeFile(join(h.root, 'empty.xlsx'), workbook.subarray(0, workbook.length / 2))
      const report = await h.knowledge.build()
      expect(report.indexed).toBe(1)
      expect(report.errors.map((e) => e.path).sort()).toEqual(['/broken.pdf', '/empty.xlsx'])
      expect(report.errors.every((e) => e.message.length > 0)).toBe(true)
      const status = await h.knowledge.status()
      expect(status.errors.map((e) => e.path).sort()).toEqual(['/broken.pdf', '/empty.xlsx'])
      // A file that vanishes between the change event and the run is dropped, not an error.
      await rm(join(h.root, 'good.docx'))
      const gone = await h.knowledge.build(['/good.docx'])
      expect(gone.errors).toEqual([])
      expect((await h.knowledge.status()).files).toBe(0)
    } finally {
      await h.close()
    }
  })

  it('rebuilds an index whose folder is corrupt or from an older version', async () => {
    const h = await knowledgeHarness({ 'doc.docx': 'report.docx' })

    await h.knowledge.build()
    await h.close()
    const dir = join(h.dataDir, 'index', workspaceIndexId(h.root))
    await writeFile(join(dir, 'manifest.json'), '{"version": 0, "files": {}}')
    const h2 = await reopen(h)
    try {
      const status = await h2.knowledge.status()
      expect(status.rebuiltBecause).toMatch(/format 0/)
      expect(status.files).toBe(0)
      await h2.knowledge.build()
      expect((await h2.knowledge.search({ query: 'kestrel', topK: 1 })).passages[0]?.path).toBe('/doc.docx')
    } finally {
      await h2.close()
    }
    // Damaged tables: every data file of the LanceDB folder overwritten with garbage.
    const lance = join(dir, 'lance', 'chunks.lance')
    for (const name of await readdir(lance, { recursive: true }))
      if (name.endsWith('.lance') || name.endsWith('.manifest'))
        await writeFile(join(lance, name), 'garbage').catch(() => undefined)
    const h3 = await reopen(h)
    try {
      const status = await h3.knowledge.status()
      expect(status.rebuiltBecause).toMatch(/damaged/)
      await h3.knowledge.build()
      expect((await h3.knowledge.search({ query: 'kestrel', topK: 1 })).passages[0]?.path).toBe('/doc.docx')
    } finally {
      await h3.close()
    }
  })
})

async function reopen(previous: { root: string; dataDir: string }) {
  const { createConverter } = await import('../../../src/main/convert')
  const { createKnowledgeService } = await import('../../../src/main/knowledge')
  const { createWorkspace } = await import('../../../src/main/workspace')
  const { defaultSettings } = await import('../../../src/shared/settings')
  const workspace = createWorkspace({ root: previous.root, history: true })
  const converter = createConverter()
  const knowledge = createKnowledgeService({
    dataDir: previous.dataDir,
    workspace: () => workspace,
    converter,
    settings: () => defaultSettings().knowledge,
    embedder: async () => undefined,
    disabled: true,
  })
  return {
    knowledge,
    async close() {
      await knowledge.close()
      await workspace.close()
      await converter.dispose()
    },
  }
}
