import { execFileSync } from 'node:child_process'
import { mkdir, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runModelsImport, runModelsRemove } from '../../../src/main/cli/models/runModels'
import type { TextIo } from '../../../src/main/cli/textIo'
import { ModelStore } from '../../../src/main/models'
import { checkGguf } from '../../../src/main/models/ggufCheck'
import { importBytes } from '../../../src/main/models/importBytes'
import { itNeeding } from '../../support/itNeeding'
import { tempDirs } from '../../support/tempDir'
import { SHARED_TINY_MODEL, SHARED_TINY_MODEL_NEEDS, TINY_MODEL } from '../../support/tinyModel'

const dirs = tempDirs('bureau-hostile-gguf-')
afterAll(() => dirs.cleanup())
const MODEL = TINY_MODEL

const silent: TextIo = { out: () => undefined, err: () => undefined }

/** Little-endian pieces of a GGUF header. */
const u32 = (value: number) => {
  const buffer = Buffer.alloc(4)
  buffer.writeUInt32LE(value)
  return buffer
}
const u64 = (value: bigint) => {
  const buffer = Buffer.alloc(8)
  buffer.writeBigUInt64LE(value)
  return buffer
}
const str = (text: string) => Buffer.concat([u64(BigInt(Buffer.byteLength(text))), Buffer.from(text)])
const header = (tensors: bigint, keyValues: bigint, ...rest: Buffer[]) =>
  Buffer.concat([Buffer.from('GGUF'), u32(3), u64(tensors), u64(keyValues), ...rest])

/** Tiny files whose headers lie; each was enough to hang or crash the import before. */
const LIARS: Record<string, Buffer> = {
  'kv-2^63': header(0n, 2n ** 63n),
  'tensors-2^62': header(2n ** 62n, 0n),
  'dims-2^31': header(1n, 0n, str('t'), u32(2 ** 31), u64(1n), Buffer.alloc(8)),
  // One key/value: an array of 2^40 uint8s.
  'array-2^40': header(0n, 1n, str('a'), u32(9), u32(0), u64(2n ** 40n), Buffer.alloc(8)),
  // An array of 2^40 strings, then a few bytes of nothing.
  'string-array-2^40': header(0n, 1n, str('a'), u32(9), u32(8), u64(2n ** 40n), Buffer.alloc(16)),
  // A string that claims more bytes than the file has.
  'string-2^60': header(0n, 1n, u64(2n ** 60n), Buffer.from('k')),
  // Dimensions too large for a JavaScript number (they came back as BigInt and broke the size sum).
  'huge-dims': header(1n, 0n, str('t'), u32(2), u64(2n ** 62n), u64(2n ** 62n), u32(0), u64(0n)),
  // Arrays nested as deep as the file allows.
  'nested-arrays': header(
    0n,
    1n,
    str('a'),
    u32(9),
    ...Array.from({ length: 50 }, () => Buffer.concat([u32(9), u64(1n)])),
  ),
  'unknown-type': header(0n, 1n, str('a'), u32(77), Buffer.alloc(8)),
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Every hostile case must end well inside this (it ran for minutes and gigabytes before). */
const BUDGET_MS = 10_000

describe('hostile GGUF headers are refused before anything is allocated', () => {
  for (const [name, bytes] of Object.entries(LIARS))
    it(`${name}: a clear error, nothing installed`, { timeout: BUDGET_MS }, async () => {
      const dir = await dirs.make()
      const file = join(dir, `${name}.gguf`)
      await writeFile(file, bytes)
      const dataDir = await dirs.make()
      await expect(runModelsImport(file, { dataDir }, silent)).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        message: expect.stringMatching(
          new RegExp(`${escapeRegExp(name)}\\.gguf is not a usable GGUF model: .+\\. Download it again`),
        ),
      })
      expect(await readdir(join(dataDir, 'models')).catch(() => [])).toEqual([])
      // The Settings page's byte import goes through the same check.
      const store = new ModelStore(await dirs.make())
      await expect(importBytes(store, `${name}.gguf`, bytes, 'x')).rejects.toThrow(
        /is not a usable GGUF model/,
      )
      expect(await store.list()).toEqual([])
    })

  it('the error names the lie', { timeout: BUDGET_MS }, async () => {
    const dir = await dirs.make()
    const cases: Array<[string, RegExp]> = [
      ['kv-2^63', /key\/value count is 9223372036854775808, more than/],
      ['tensors-2^62', /tensor count is 4611686018427387904/],
      ['dims-2^31', /tensor 1 has 2147483648 dimensions \(1 to 4 allowed\)/],
      ['array-2^40', /length of metadata entry 1 is 1099511627776/],
      ['huge-dims', /tensor 1 claims \d+ values, more than a \d+-byte file can hold/],
      ['nested-arrays', /nests arrays more than 3 deep/],
      ['unknown-type', /unknown value type 77/],
    ]
    for (const [name, pattern] of cases) {
      const file = join(dir, `${name}.gguf`)
      await writeFile(file, LIARS[name] as Buffer)
      await expect(checkGguf(file)).rejects.toThrow(pattern)
    }
    // The header walk's own error is kept behind the AppError as its cause.
    const error = await checkGguf(join(dir, 'kv-2^63.gguf')).catch((e: unknown) => e)
    expect((error as Error).cause).toBeInstanceOf(Error)
    expect((error as Error & { code: string }).code).toBe('VALIDATION_FAILED')
  })

  it('a named pipe is refused without being opened, a folder without EISDIR', {
    timeout: BUDGET_MS,
  }, async () => {
    const dir = await dirs.make()
    const fifo = join(dir, 'x.gguf')
    execFileSync('mkfifo', [fifo])
    const dataDir = await dirs.make()
    await expect(runModelsImport(fifo, { dataDir }, silent)).rejects.toThrow(
      /x\.gguf is not a usable GGUF model: it is a named pipe, not a file/,
    )
    const folder = join(dir, 'folder.gguf')
    await mkdir(folder)
    await expect(runModelsImport(folder, { dataDir }, silent)).rejects.toThrow(
      /folder\.gguf is not a usable GGUF model: it is a folder, not a file/,
    )
    expect(await readdir(join(dataDir, 'models')).catch(() => [])).toEqual([])
  })

  it('a .gguf path named directly (chat --model, the embedding model) gets the same header walk', {
    timeout: BUDGET_MS,
  }, async () => {
    const dir = await dirs.make()
    const file = join(dir, 'liar.gguf')
    await writeFile(file, LIARS['array-2^40'] as Buffer)
    const store = new ModelStore(await dirs.make())
    await expect(store.modelPath(file)).rejects.toThrow(
      /liar\.gguf is not a usable GGUF model: the length of metadata entry 1/,
    )
  })

  it('the real model still passes, by path and by the header check', { timeout: 60_000 }, async () => {
    const store = new ModelStore(await dirs.make())
    expect(await store.modelPath(MODEL)).toBe(MODEL)
    const summary = await checkGguf(MODEL)
    expect(summary.architecture).toBe('llama')
    expect(summary.version).toBeGreaterThanOrEqual(2)
  })

  itNeeding(
    [SHARED_TINY_MODEL_NEEDS],
    "a GGUF another project wrote (ollama's tiny model) passes the header check too",
    async () => {
      const store = new ModelStore(await dirs.make())
      expect(await store.modelPath(SHARED_TINY_MODEL)).toBe(SHARED_TINY_MODEL)
      const summary = await checkGguf(SHARED_TINY_MODEL)
      expect(summary.architecture).toBe('llama')
      expect(summary.version).toBeGreaterThanOrEqual(2)
    },
    60_000,
  )
})

describe('model ids: one rule on every entry point', () => {
  const ESCAPES = ['../../evil', '../evil', '/tmp/evil', 'a/b', '.hidden', '..', 'Evil', 'x'.repeat(81), '']

  it('import --id and rm refuse ids that would leave the models folder; nothing is written or deleted', {
    timeout: 60_000,
  }, async () => {
    const root = await dirs.make()
    const dataDir = join(root, 'a', 'b', 'dd')
    // What `../../evil` from <dataDir>/models would reach, planted to see that rm leaves it alone.
    await mkdir(join(root, 'a'), { recursive: true })
    await writeFile(join(root, 'a', 'evil.gguf'), 'not yours')
    for (const id of ESCAPES) {
      await expect(runModelsImport(MODEL, { dataDir, id }, silent), id).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        message: expect.stringContaining('is not a model id'),
      })
      await expect(runModelsRemove(id, { dataDir }, silent), id).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
      })
    }
    expect(await readdir(join(root, 'a'))).toEqual(['evil.gguf'])
    expect(await readdir(join(dataDir, 'models')).catch(() => [])).toEqual([])
    const store = new ModelStore(dataDir)
    await expect(store.modelPath('../../evil')).rejects.toThrow(/is not a model id/)
    await expect(importBytes(store, 'm.gguf', new Uint8Array(8), '../x')).rejects.toThrow(/is not a model id/)
  })
})
