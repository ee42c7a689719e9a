import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { knowledgeHarness, temps } from './harness'

afterAll(() => temps.cleanup())

describe.skipIf(process.platform === 'win32')('knowledge index: Windows device names elsewhere', () => {
  it('indexes nul.txt, con.md and COM1.md (ordinary files on Linux and macOS) instead of dropping them', async () => {
    const h = await knowledgeHarness({})
    try {
      const files = {
        'nul.txt': 'The quartermaster ledger lists nineteen lanterns.',
        'con.md': '# Minutes\n\nThe committee approved the heliotrope budget.',
        'notes/COM1.md': 'Serial notes about the marzipan shipment.',
        'plain.md': 'An ordinary file about the walrus census.',
      }
      await mkdir(join(h.root, 'notes'))
      for (const [name, text] of Object.entries(files)) await writeFile(join(h.root, name), text)
      const report = await h.knowledge.build()
      expect(report).toMatchObject({ scanned: 4, indexed: 4, removed: 0, errors: [] })
      for (const [word, path] of [
        ['lanterns', '/nul.txt'],
        ['heliotrope', '/con.md'],
        ['marzipan', '/notes/COM1.md'],
      ]) {
        const found = await h.knowledge.search({ query: word!, topK: 3 })
        expect(found.passages[0]?.path).toBe(path)
      }
      const again = await h.knowledge.build()
      expect(again).toMatchObject({ unchanged: 4, removed: 0 })
    } finally {
      await h.close()
    }
  }, 60_000)
})
