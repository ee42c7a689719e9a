import { spawnSync } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { tempDirs } from '../../support/tempDir'

// LanceDB logs from Rust straight to the process's stderr, where a CLI user reads it: a fresh process
// stores vectors and searches them, and its stderr must stay empty while the scores stay real numbers.
const dirs = tempDirs('bureau-chunk-store-')
afterAll(() => dirs.cleanup())

const chunkStore = new URL('../../../src/main/knowledge/store/chunkStore.ts', import.meta.url).href

const RUNNER = `
const [storeUrl, dir] = process.argv.slice(2)
const { ChunkStore } = await import(storeUrl)
const store = await ChunkStore.open(dir)
await store.addVectors([
  { id: 'a', path: '/a.md', vector: [1, 0, 0] },
  { id: 'b', path: '/b.md', vector: [0, 1, 0] },
])
const nearest = await store.nearest([1, 0.1, 0], 2)
store.close()
console.log(JSON.stringify(nearest))
`

describe('the chunk store on stderr', () => {
  it('stores and searches vectors without LanceDB warnings, with the distance it was asked for', async () => {
    const base = await dirs.make()
    const runner = join(base, 'runner.mjs')
    await writeFile(runner, RUNNER)
    const result = spawnSync(process.execPath, ['--import', 'tsx', runner, chunkStore, join(base, 'lance')], {
      encoding: 'utf8',
    })
    expect(result.status, result.stderr).toBe(0)
    expect(result.stderr).toBe('')
    const nearest = JSON.parse(result.stdout) as { id: string; score: number }[]
    expect(nearest.map((row) => row.id)).toEqual(['a', 'b'])
    expect(nearest[0]?.score).toBeGreaterThan(0.99)
    expect(nearest[1]?.score).toBeCloseTo(0.1 / Math.hypot(1, 0.1), 3)
  })
})
