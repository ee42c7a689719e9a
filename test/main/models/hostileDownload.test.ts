import { readdir, readFile } from 'node:fs/promises'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { progressLine } from '../../../src/main/cli/models/runModels'
import { ModelStore, pullModel } from '../../../src/main/models'
import { sha256File } from '../../../src/main/models/modelStore'
import { tempDirs } from '../../support/tempDir'
import { TINY_MODEL } from '../../support/tinyModel'

const dirs = tempDirs('bureau-hostile-download-')
const MODEL = TINY_MODEL
let bytes: Buffer
let server: Server
let base: string
/** Requests per path, to show the download gave up after a bounded number. */
const requests = new Map<string, number>()

function rangeStart(req: IncomingMessage): number {
  return Number(/^bytes=(\d+)-$/.exec(req.headers.range ?? '')?.[1] ?? 0)
}

/** The first response of a lying path: honest, but cut off halfway, so the client must resume. */
function cutHalfway(res: ServerResponse): void {
  res.writeHead(200, { 'content-length': String(bytes.length) })
  res.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => res.socket?.destroy())
}

/** Lying servers, by path. Each answers the first request with the first half of the file. */
const LIARS: Record<string, (req: IncomingMessage, res: ServerResponse, count: number) => void> = {
  // Every request gets a correct 206 with one byte: progress, but never the end.
  '/one-byte/': (req, res) => {
    const start = rangeStart(req)
    res.writeHead(206, {
      'content-length': '1',
      'content-range': `bytes ${start}-${start}/${bytes.length}`,
    })
    res.end(bytes.subarray(start, start + 1))
  },
  // The resume gets the whole file again, labelled as such.
  '/whole-again/': (_req, res, count) => {
    if (count === 1) return cutHalfway(res)
    res.writeHead(206, {
      'content-length': String(bytes.length),
      'content-range': `bytes 0-${bytes.length - 1}/${bytes.length}`,
    })
    res.end(bytes)
  },
  // The resume starts where asked, but the file has suddenly grown.
  '/other-total/': (req, res, count) => {
    if (count === 1) return cutHalfway(res)
    const start = rangeStart(req)
    const grown = Buffer.concat([bytes, Buffer.alloc(1000)])
    res.writeHead(206, { 'content-range': `bytes ${start}-${grown.length - 1}/${grown.length}` })
    res.end(grown.subarray(start))
  },
  // A 206 without any Content-Range.
  '/no-range/': (req, res, count) => {
    if (count === 1) return cutHalfway(res)
    res.writeHead(206)
    res.end(bytes.subarray(rangeStart(req)))
  },
  // Announces ten bytes, then sends the rest of the file (chunked, so HTTP itself does not stop it).
  '/overrun/': (req, res, count) => {
    if (count === 1) return cutHalfway(res)
    const start = rangeStart(req)
    res.writeHead(206, { 'content-range': `bytes ${start}-${start + 9}/${bytes.length}` })
    res.end(bytes.subarray(start))
  },
}

/** Each lying server must be given up on well inside this (one ran 108,000 requests in 60 s before). */
const BUDGET_MS = 15_000

/** The promise, or a failure once `ms` passed: the budget of the hostile part alone, not of the setup. */
function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still running after ${ms} ms`)), ms)
  })
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}

// The lying servers serve the tiny model's bytes, which an install checks as a real model.
describe('model downloads from lying servers', () => {
  beforeAll(async () => {
    // The installs below check the fixture with node-llama-cpp: load it once, outside the budgets.
    await import('node-llama-cpp')
    bytes = await readFile(MODEL)
    server = createServer((req, res) => {
      const path = Object.keys(LIARS).find((prefix) => req.url?.startsWith(prefix))
      const count = (requests.get(req.url ?? '') ?? 0) + 1
      requests.set(req.url ?? '', count)
      if (!path) {
        res.writeHead(404)
        res.end()
        return
      }
      LIARS[path]?.(req, res, count)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  }, 120_000)

  afterAll(async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
    await dirs.cleanup()
  })

  describe('a lying download server ends with a clear error and installs nothing', () => {
    it('206 with one byte per request: bounded requests, a clear message', {
      timeout: BUDGET_MS,
    }, async () => {
      const store = new ModelStore(await dirs.make())
      await expect(pullModel({ store, catalogue: [], ref: `${base}/one-byte/m.gguf` })).rejects.toMatchObject(
        {
          code: 'UNAVAILABLE',
          message: expect.stringMatching(
            /broke off 6 times \(the server sent 6 of \d+ bytes and no more\); run it again to resume/,
          ),
        },
      )
      expect(requests.get('/one-byte/m.gguf')).toBe(6)
      expect(await store.list()).toEqual([])
    })

    const cases: Array<[string, RegExp]> = [
      ['/whole-again/', /was asked for the bytes from \d+ on and sent 0-\d+ instead/],
      ['/other-total/', /said the file has \d+ bytes, then \d+/],
      ['/no-range/', /answered 206 with the Content-Range null, not a byte range/],
      ['/overrun/', /sent more bytes than the 10 it announced/],
    ]
    for (const [path, why] of cases)
      it(`${path}: refused, no partial file kept, the installed model of that id intact`, {
        timeout: 120_000,
      }, async () => {
        const store = new ModelStore(await dirs.make())
        const installed = await store.import(MODEL, 'm')
        const error = await within(
          BUDGET_MS,
          pullModel({ store, catalogue: [], ref: `${base}${path}m.gguf` }).catch((e: Error) => e),
        )
        expect(error).toMatchObject({ code: 'UNAVAILABLE' })
        expect((error as Error).message).toMatch(why)
        expect((error as Error).message).toMatch(
          /does not resume downloads correctly\. The partial file was deleted/,
        )
        expect(await readdir(store.dir)).toEqual(['m.gguf', 'm.json'])
        expect(await sha256File(installed.path)).toBe(installed.sha256)
        expect(requests.get(`${path}m.gguf`)).toBe(2)
      })
  })

  describe('download progress', () => {
    it('a speed under 1 KB/s is printed in whole bytes', () => {
      const line = progressLine({
        receivedBytes: 100,
        totalBytes: 2000,
        speed: 23.809523809523807,
        etaSeconds: 79.8,
        resumes: 0,
      })
      expect(line).toBe('5% 100 B / 2 KB  24 B/s  ETA 1m 20s')
    })
  })
})
