import { execFileSync } from 'node:child_process'
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { codeCacheFolder } from '../../../src/main/convert/worker/codeCache'
import { tempDirs } from '../../support/tempDir'

// The hook compiles the CommonJS files of one folder with V8's cached bytecode (how the built conversion
// worker loads its chunks). Each step runs in a fresh Node process, as each worker is a fresh V8
// isolate: within one isolate V8 reuses the script it compiled before and never reads the cache again.
const dirs = tempDirs('bureau-code-cache-')
afterAll(() => dirs.cleanup())

const codeCache = pathToFileURL(
  fileURLToPath(new URL('../../../src/main/convert/worker/codeCache.ts', import.meta.url)),
).href

const LIBRARY = `
exports.add = function add(a, b) { return a + b }
exports.words = function words(text) { return text.split(/\\s+/).filter(Boolean).map((w) => w.toUpperCase()) }
`

/** What a fresh process saw: the library's answers and the hook's counts. */
interface Run {
  sum: number
  words: string[]
  outside: number
  stats: { compiled: number; fromCache: number; rejected: number; written: number }
}

const RUNNER = `
import { createRequire } from 'node:module'
import { join } from 'node:path'
const [codeCache, root, build, elsewhere] = process.argv.slice(2)
const hook = await import(codeCache)

hook.installCodeCache(root === '-' ? undefined : root, build)
const lib = createRequire(join(build, 'index.cjs'))('./lib-AbC_12-9.cjs')
const outside = createRequire(join(elsewhere, 'index.cjs'))('./outside.cjs')
const run = { sum: lib.add(2, 3), words: lib.words(' a  b '), outside: outside.value }
hook.writePendingCodeCache()
console.log(JSON.stringify({ ...run, stats: hook.codeCacheStats() }))
`

const base = await dirs.make()
const build = join(base, 'build')
const elsewhere = join(base, 'elsewhere')
const root = join(base, 'cache')
await mkdir(build)
await mkdir(elsewhere)
await writeFile(join(build, 'lib-AbC_12-9.cjs'), LIBRARY)
await writeFile(join(elsewhere, 'outside.cjs'), 'exports.value = 7\n')
const runner = join(base, 'runner.mjs')
await writeFile(runner, RUNNER)
const folder = codeCacheFolder(root, build)
const cacheFile = join(folder, 'lib-AbC_12-9.cjs.v8')
const run = (cacheRoot = root): Run =>
  JSON.parse(
    execFileSync(process.execPath, ['--import', 'tsx', runner, codeCache, cacheRoot, build, elsewhere], {
      encoding: 'utf8',
    }),
  ) as Run

describe('the code cache of the built worker', () => {
  it('compiles a file of its folder from source the first time and writes its cache after', () => {
    const first = run()
    expect(first).toMatchObject({ sum: 5, words: ['A', 'B'], outside: 7 })
    // The file outside the folder was left to Node: one file compiled here.
    expect(first.stats).toEqual({ compiled: 1, fromCache: 0, rejected: 0, written: 1 })
    expect(statSync(cacheFile).size).toBeGreaterThan(0)
    // One V8 and architecture per folder: Electron's V8 and the CLI's Node do not share caches.
    expect(folder).toContain(`v8-${process.versions.v8}-${process.arch}`)
  })

  it('takes the cached bytecode next time, and writes nothing', () => {
    const written = statSync(cacheFile).mtimeMs
    const second = run()
    expect(second).toMatchObject({ sum: 5, words: ['A', 'B'] })
    expect(second.stats).toEqual({ compiled: 1, fromCache: 1, rejected: 0, written: 0 })
    expect(statSync(cacheFile).mtimeMs).toBe(written)
  })

  it('compiles from source when the cache is damaged, truncated or made for another source', () => {
    const good = readFileSync(cacheFile)
    const flipped = Buffer.from(good)
    for (let at = Math.floor(flipped.length / 2); at < flipped.length; at += 7)
      flipped[at] = (flipped[at] ?? 0) ^ 0xff
    // Another script's cache, made for a source of the same length (V8 itself compares only lengths).
    const other = Buffer.from(good)
    other[20] = (other[20] ?? 0) ^ 0x01
    for (const damaged of [
      flipped,
      good.subarray(0, 40),
      other,
      Buffer.from('garbage'.repeat(200)),
      Buffer.alloc(0),
    ]) {
      writeFileSync(cacheFile, damaged)
      const next = run()
      expect(next).toMatchObject({ sum: 5, words: ['A', 'B'] })
      expect(next.stats.fromCache).toBe(0)
      expect(next.stats.written).toBe(1)
      expect(run().stats.fromCache).toBe(1)
    }
  })

  it('keeps the three most recently used builds beside the current one', () => {
    const parent = join(folder, '..')
    for (const [index, name] of ['b1', 'b2', 'b3', 'b4'].entries()) {
      mkdirSync(join(parent, name), { recursive: true })
      writeFileSync(join(parent, name, 'x.cjs.v8'), 'old')
      const used = new Date(Date.now() - (10 - index) * 60_000)
      utimesSync(join(parent, name), used, used)
    }
    writeFileSync(cacheFile, 'stale')
    run()
    expect(readdirSync(parent).sort()).toEqual(['b2', 'b3', 'b4', folder.split(/[\\/]/).pop()].sort())
  })

  it.skipIf(process.platform === 'win32')('is not used from a folder others can write', () => {
    const shared = join(base, 'shared')
    const sharedFolder = codeCacheFolder(shared, build)
    mkdirSync(sharedFolder, { recursive: true })
    chmodSync(sharedFolder, 0o777)
    const result = run(shared)
    expect(result).toMatchObject({ sum: 5, words: ['A', 'B'] })
    expect(result.stats).toEqual({ compiled: 0, fromCache: 0, rejected: 0, written: 0 })
    expect(readdirSync(sharedFolder)).toEqual([])
  })

  it('gives up quietly on a folder it cannot write, and the code still runs', async () => {
    // The cache's place is taken by a file: nothing can be created under it.
    const blocked = join(base, 'blocked')
    await writeFile(blocked, 'not a folder')
    const result = run(blocked)
    expect(result).toMatchObject({ sum: 5, words: ['A', 'B'] })
    expect(result.stats).toMatchObject({ written: 0 })
  })

  it('does nothing when turned off', () => {
    expect(run('-').stats).toEqual({ compiled: 0, fromCache: 0, rejected: 0, written: 0 })
  })
})
