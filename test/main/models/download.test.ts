import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { lstat, readFile, stat, symlink, writeFile } from 'node:fs/promises'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DownloadProgress, loadCatalogue, ModelStore, pullModel } from '../../../src/main/models'
import type { CatalogueEntry } from '../../../src/main/models/catalogue'
import { downloadFile } from '../../../src/main/models/download'
import { checkGguf } from '../../../src/main/models/ggufCheck'
import { sha256File } from '../../../src/main/models/modelStore'
import { tempDirs } from '../../support/tempDir'
import { TINY_MODEL } from '../../support/tinyModel'

const MODEL = TINY_MODEL
let bytes: Buffer
let sha: string
let server: Server
let base: string
const dirs = tempDirs('bureau-models-')
/** Four copies of the model: a body of about 2 MB for the test of a long download. */
let longBody: Buffer
/** Behaviour per path: `/ok`, `/long`, `/drop` (cuts the first response halfway), `/slow`, anything else 404. */
let dropped = 0
const rangeRequests: string[] = []

function serveRange(
  req: IncomingMessage,
  res: ServerResponse,
  body: Buffer,
): { start: number; slice: Buffer } {
  const match = /^bytes=(\d+)-$/.exec(req.headers.range ?? '')
  const start = match ? Number(match[1]) : 0
  if (match) rangeRequests.push(req.headers.range as string)
  const slice = body.subarray(start)
  res.writeHead(match ? 206 : 200, {
    'content-length': String(slice.length),
    ...(match && { 'content-range': `bytes ${start}-${body.length - 1}/${body.length}` }),
  })
  return { start, slice }
}

beforeAll(async () => {
  bytes = await readFile(MODEL)
  sha = createHash('sha256').update(bytes).digest('hex')
  longBody = Buffer.concat([bytes, bytes, bytes, bytes])
  server = createServer((req, res) => {
    const path = req.url ?? '/'
    if (path.startsWith('/ok/')) {
      res.end(serveRange(req, res, bytes).slice)
    } else if (path.startsWith('/long/')) {
      res.end(serveRange(req, res, longBody).slice)
    } else if (path.startsWith('/drop/')) {
      const { start, slice } = serveRange(req, res, bytes)
      if (start === 0 && dropped === 0) {
        dropped++
        res.write(slice.subarray(0, Math.floor(slice.length / 2)), () => res.socket?.destroy())
      } else res.end(slice)
    } else if (path.startsWith('/dies/')) {
      // Every response breaks off after 64 KiB: the download dies however often it resumes.
      const { slice } = serveRange(req, res, bytes)
      res.write(slice.subarray(0, 64 * 1024), () => res.socket?.destroy())
    } else if (path.startsWith('/slow/')) {
      const { slice } = serveRange(req, res, bytes)
      let offset = 0
      // Slow for the first 256 KiB (where the test cancels), then the rest at once.
      const timer = setInterval(() => {
        if (res.destroyed) return clearInterval(timer)
        const step = offset < 256 * 1024 ? 16 * 1024 : slice.length
        res.write(slice.subarray(offset, offset + step))
        offset += step
        if (offset >= slice.length) {
          clearInterval(timer)
          res.end()
        }
      }, 20)
      res.on('close', () => clearInterval(timer))
    } else if (path.startsWith('/text/')) {
      res.writeHead(200, { 'content-length': '11' })
      res.end('hello world')
    } else {
      res.writeHead(404)
      res.end('not found')
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
  await dirs.cleanup()
})

/**
 * The whole fixture, compared by size and digest: \`toEqual\` on two 1.7 MB buffers walks them byte by
 * byte and took 10 to 20 seconds per test.
 */
async function expectFixtureBytes(path: string): Promise<void> {
  expect((await stat(path)).size).toBe(bytes.length)
  expect(await sha256File(path)).toBe(sha)
}

/** A real ENOSPC without root: every write to /dev/full fails with it (Linux). */
const DEV_FULL = '/dev/full'
const hasDevFull = existsSync(DEV_FULL)
if (!hasDevFull) console.warn(`Skipping the full-disk tests: ${DEV_FULL} does not exist on this system.`)

async function newStore(): Promise<ModelStore> {
  return new ModelStore(await dirs.make())
}

// Generous limits: the first GGUF check imports node-llama-cpp, slow on a loaded machine.
describe('model downloads and imports of the tiny GGUF', () => {
  describe('model downloads against a local HTTP server serving the fixture', { timeout: 120_000 }, () => {
    it('reports progress with bytes, speed and ETA, verifies the sha256 and installs the model', async () => {
      const store = await newStore()
      const events: DownloadProgress[] = []
      const model = await pullModel({
        store,
        catalogue: [],
        ref: `${base}/ok/tiny.gguf`,
        sha256: sha,
        onProgress: (p) => events.push(p),
      })
      expect(model.id).toBe('tiny')
      expect(model.sha256).toBe(sha)
      expect((await stat(model.path)).size).toBe(bytes.length)
      expect(events.length).toBeGreaterThan(0)
      expect(events.at(-1)?.receivedBytes).toBe(bytes.length)
      expect(events.at(-1)?.totalBytes).toBe(bytes.length)
      expect(events.every((e, i) => i === 0 || e.receivedBytes >= (events[i - 1]?.receivedBytes ?? 0))).toBe(
        true,
      )
      expect(events.at(-1)?.etaSeconds).toBe(0)
      expect((await store.list()).map((m) => m.id)).toEqual(['tiny'])
      expect(await store.modelPath('tiny')).toBe(model.path)
    })

    it('resumes with an HTTP Range request after the server drops the connection mid-file', async () => {
      const store = await newStore()
      rangeRequests.length = 0
      const events: DownloadProgress[] = []
      const model = await pullModel({
        store,
        catalogue: [],
        ref: `${base}/drop/tiny.gguf`,
        sha256: sha,
        onProgress: (p) => events.push(p),
      })
      expect(dropped).toBe(1)
      expect(rangeRequests).toHaveLength(1)
      expect(Number(/(\d+)/.exec(rangeRequests[0] ?? '')?.[1])).toBeGreaterThan(0)
      expect(events.at(-1)?.resumes).toBe(1)
      await expectFixtureBytes(model.path)
    })

    it('a download that keeps dying: a clear message to run it again, the partial file kept, the installed model intact', async () => {
      const store = await newStore()
      const installed = await store.import(MODEL, 'tiny')
      rangeRequests.length = 0
      await expect(
        pullModel({ store, catalogue: [], ref: `${base}/dies/tiny.gguf`, sha256: sha }),
      ).rejects.toMatchObject({
        code: 'UNAVAILABLE',
        message: expect.stringMatching(/broke off 6 times .*run it again to resume/),
      })
      expect(rangeRequests).toHaveLength(5)
      const partial = await stat(join(store.dir, 'tiny.gguf.part'))
      // What arrived before each cut (a reset may lose the last bytes in flight), kept for the next pull.
      expect(partial.size).toBeGreaterThan(Number(/(\d+)/.exec(rangeRequests.at(-1) ?? '')?.[1]))
      expect(partial.size).toBeLessThan(bytes.length)
      expect((await store.list()).map((m) => m.id)).toEqual(['tiny'])
      await expectFixtureBytes(installed.path)
    })

    it('waits for the disk without piling up listeners on the file (no leak warning over a long download)', async () => {
      const store = await newStore()
      const target = join(store.dir, 'waits.gguf')
      const warnings: Error[] = []
      const onWarning = (warning: Error) => warnings.push(warning)
      process.on('warning', onWarning)
      let chunks = 0
      try {
        // The body arrives in chunks larger than the file stream's 16 KiB buffer: every write waits.
        const result = await downloadFile({
          url: `${base}/long/waits.gguf`,
          target,
          onProgress: () => chunks++,
        })
        expect(result.sha256).toBe(createHash('sha256').update(longBody).digest('hex'))
        // Warnings are emitted on the next tick.
        await new Promise((resolve) => setImmediate(resolve))
      } finally {
        process.off('warning', onWarning)
      }
      expect(chunks).toBeGreaterThan(10)
      expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([])
    })

    it('a checksum mismatch deletes the download and says so', async () => {
      const store = await newStore()
      const wrong = '0'.repeat(64)
      await expect(
        pullModel({ store, catalogue: [], ref: `${base}/ok/tiny.gguf`, sha256: wrong }),
      ).rejects.toThrow(/sha256 is [0-9a-f]{64}, expected 0{64}.*partial file was deleted/)
      expect(await store.list()).toEqual([])
      await expect(stat(join(store.dir, 'tiny.gguf.part'))).rejects.toThrow()
    })

    it('a disk without room for the model is refused before any byte is written', async () => {
      const store = await newStore()
      const target = join(store.dir, 'tiny.gguf')
      // The real free space of the temp disk, asked to keep more in reserve than any disk holds.
      const full = { reserveBytes: 2 ** 60 }
      await expect(downloadFile({ url: `${base}/ok/tiny.gguf`, target, ...full })).rejects.toMatchObject({
        code: 'TOO_LARGE',
        message: expect.stringMatching(
          /Not enough free disk space in .*Free some space or choose a smaller model/,
        ),
      })
      await expect(
        downloadFile({ url: `${base}/ok/tiny.gguf`, target, expectedBytes: bytes.length, ...full }),
      ).rejects.toThrow(/Not enough free disk space/)
      await expect(stat(`${target}.part`)).rejects.toThrow()
      await expect(stat(target)).rejects.toThrow()
      expect(await store.list()).toEqual([])
    })

    it.runIf(hasDevFull)(
      'a disk that fills up mid-download: a clear message, the partial file deleted, the installed model of that id intact',
      async () => {
        const store = await newStore()
        const installed = await store.import(MODEL, 'tiny')
        // The download's partial file is a symlink to /dev/full: its first write fails with a real ENOSPC.
        const part = join(store.dir, 'tiny.gguf.part')
        await symlink(DEV_FULL, part)
        await expect(
          pullModel({ store, catalogue: [], ref: `${base}/ok/tiny.gguf`, sha256: sha }),
        ).rejects.toMatchObject({
          code: 'TOO_LARGE',
          message: expect.stringMatching(
            /^The disk is full \(ENOSPC\): the download stopped .*partial file was deleted.*free some space on that disk, then try again\.$/,
          ),
        })
        await expect(lstat(part)).rejects.toThrow()
        expect((await store.list()).map((m) => m.id)).toEqual(['tiny'])
        await expectFixtureBytes(installed.path)
      },
    )

    it('a 404 is a clear error naming the URL, and nothing is installed', async () => {
      const store = await newStore()
      await expect(pullModel({ store, catalogue: [], ref: `${base}/missing/x.gguf` })).rejects.toMatchObject({
        code: 'NOT_FOUND',
        message: expect.stringContaining('404'),
      })
      expect(await store.list()).toEqual([])
    })

    it('a slow server still completes, and cancelling keeps the partial file for a later resume', async () => {
      const store = await newStore()
      const controller = new AbortController()
      const run = pullModel({
        store,
        catalogue: [],
        ref: `${base}/slow/tiny.gguf`,
        signal: controller.signal,
        onProgress: (p) => {
          if (p.receivedBytes >= 64 * 1024) controller.abort()
        },
      })
      await expect(run).rejects.toMatchObject({ code: 'CANCELLED' })
      const partial = await stat(join(store.dir, 'tiny.gguf.part'))
      expect(partial.size).toBeGreaterThan(0)
      expect(partial.size).toBeLessThan(bytes.length)
      expect(await store.list()).toEqual([])
      // The next pull resumes from the partial file and the whole file verifies.
      rangeRequests.length = 0
      const model = await pullModel({ store, catalogue: [], ref: `${base}/slow/tiny.gguf`, sha256: sha })
      expect(rangeRequests).toEqual([`bytes=${partial.size}-`])
      await expectFixtureBytes(model.path)
    })

    it('a download that is not a GGUF model is refused and removed', async () => {
      const store = await newStore()
      await expect(pullModel({ store, catalogue: [], ref: `${base}/text/notes.gguf` })).rejects.toThrow(
        /not a usable GGUF model: it has only 11 bytes|does not start with the GGUF signature/,
      )
      expect(await store.list()).toEqual([])
    })

    it('a catalogue id pulls its URL, and the shipped catalogue parses', async () => {
      const store = await newStore()
      const entry: CatalogueEntry = {
        id: 'tiny-test',
        name: 'Tiny',
        url: `${base}/ok/whatever.gguf`,
        sizeBytes: bytes.length,
        sha256: sha,
        licence: 'MIT',
        parameters: '1M',
        quantisation: 'F16',
        minRamGiB: 0.1,
      }
      const model = await pullModel({ store, catalogue: [entry], ref: 'tiny-test' })
      expect(model.id).toBe('tiny-test')
      const shipped = await loadCatalogue()
      expect(shipped.map((e) => e.id)).toEqual(['qwen3-1.7b-q8', 'qwen3-4b-q4km', 'qwen3-8b-q4km'])
    })
  })

  describe('importing a .gguf file', { timeout: 120_000 }, () => {
    it('imports the fixture and removes it again', async () => {
      const store = await newStore()
      const model = await store.import(MODEL)
      expect(model.id).toBe('tiny-llama-random')
      expect(model.sha256).toBe(sha)
      expect((await checkGguf(model.path)).architecture).toBe('llama')
      await store.remove('tiny-llama-random')
      expect(await store.list()).toEqual([])
    })

    it('a truncated or non-GGUF file gives a clear error and installs nothing', async () => {
      const store = await newStore()
      const dir = await dirs.make()
      const truncated = join(dir, 'cut.gguf')
      // Short of its last KiB: every tensor starts inside the file, but the last one ends past it.
      await writeFile(truncated, bytes.subarray(0, bytes.length - 1024))
      await expect(store.import(truncated)).rejects.toThrow(
        /cut\.gguf is not a usable GGUF model: it is truncated/,
      )
      const text = join(dir, 'notes.gguf')
      await writeFile(text, 'these are just some notes, not a model')
      await expect(store.import(text)).rejects.toThrow(/does not start with the GGUF signature/)
      expect(await store.list()).toEqual([])
    })

    it.runIf(hasDevFull)('a disk that fills up while copying says so and installs nothing', async () => {
      const store = await newStore()
      await store.import(MODEL, 'tiny')
      const partial = join(store.dir, 'tiny.gguf.import')
      await symlink(DEV_FULL, partial)
      await expect(store.import(MODEL, 'tiny')).rejects.toThrow(
        /^The disk is full \(ENOSPC\): importing tiny-llama-random\.gguf stopped.*free some space/,
      )
      await expect(lstat(partial)).rejects.toThrow()
      await expectFixtureBytes(join(store.dir, 'tiny.gguf'))
    })
  })
})
