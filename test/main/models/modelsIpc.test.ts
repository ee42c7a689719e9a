import { existsSync } from 'node:fs'
import { lstat, readdir, readFile, symlink } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { type BureauApp, createApp } from '../../../src/main/app'
import type { CatalogueEntry } from '../../../src/main/models'
import { silentLogger } from '../../../src/main/platform'
import { type ScriptedLlm, startScriptedLlm } from '../../support/scriptedLlm'
import { tempDirs } from '../../support/tempDir'
import { TINY_MODEL } from '../../support/tinyModel'

const dirs = tempDirs('bureau-models-ipc-')
const ctx = () => ({ senderId: 'test', signal: new AbortController().signal })
const TINY = 'tiny-llama-random'
let app: BureauApp
let dataDir: string
let tiny: Uint8Array<ArrayBuffer>
let llm: ScriptedLlm
let ollama: Server
const progress: Array<Record<string, unknown>> = []
if (!existsSync('/dev/full'))
  console.warn('Skipping the full-disk download test: /dev/full does not exist here.')

const entry = (id: string, url: string): CatalogueEntry => ({
  id,
  name: `Model ${id}`,
  url,
  sizeBytes: tiny.byteLength,
  sha256: null,
  licence: 'MIT',
  parameters: 'tiny',
  quantisation: 'F32',
  minRamGiB: 1,
})

/** Serves the fixture for `/tiny.gguf`; `/slow.gguf` sends 1 KiB and then waits until aborted. */
const fakeFetch: typeof fetch = async (input, init) => {
  const url = String(input)
  if (url.endsWith('/tiny.gguf'))
    return new Response(tiny, { headers: { 'content-length': String(tiny.byteLength) } })
  const signal = init?.signal
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(tiny.subarray(0, 1024))
      signal?.addEventListener('abort', () => controller.error(new Error('aborted')))
    },
  })
  return new Response(body, { headers: { 'content-length': String(tiny.byteLength) } })
}

async function call<T = unknown>(route: string, input?: unknown): Promise<T> {
  const result = await app.router.dispatch(route, input, ctx())
  if (!result.ok) throw Object.assign(new Error(result.error.message), { code: result.error.code })
  return result.value as T
}
const failure = async (route: string, input?: unknown) => {
  const result = await app.router.dispatch(route, input, ctx())
  if (result.ok) throw new Error(`${route} should have failed`)
  return result.error
}

beforeAll(async () => {
  tiny = new Uint8Array(await readFile(TINY_MODEL))
  llm = await startScriptedLlm()
  ollama = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ models: [{ name: 'qwen3:4b', size: 2_500_000_000 }] }))
  })
  await new Promise<void>((resolve) => ollama.listen(0, '127.0.0.1', resolve))
  const root = await dirs.make()
  dataDir = join(root, 'data')
  app = await createApp({
    host: 'web',
    dataDir,
    workspaceDir: join(root, 'ws'),
    logger: silentLogger,
    models: {
      catalogue: async () => [
        entry('tiny-download', 'https://models.example/tiny.gguf'),
        entry('slow-download', 'https://models.example/slow.gguf'),
        entry('full-download', 'https://models.example/full/tiny.gguf'),
      ],
      fetch: fakeFetch,
    },
  })
  app.events.subscribe((event, payload) => {
    if (event === 'models.progress') progress.push(payload as Record<string, unknown>)
  })
})
afterAll(async () => {
  await app.dispose()
  await llm.close()
  await new Promise((resolve) => ollama.close(resolve))
  await dirs.cleanup()
})

describe('models.* routes with the tiny GGUF', () => {
  describe('models.* routes', () => {
    it('models.import installs a dropped .gguf; models.list shows its file name and size, never a host path', async () => {
      expect(await call('models.list')).toEqual([])
      const imported = await call('models.import', { fileName: `${TINY}.gguf`, bytes: tiny })
      expect(imported).toMatchObject({
        id: TINY,
        fileName: `${TINY}.gguf`,
        sizeBytes: tiny.byteLength,
        inUse: false,
      })
      const list = await call<Array<{ id: string }>>('models.list')
      expect(list.map((m) => m.id)).toEqual([TINY])
      expect(JSON.stringify(list)).not.toContain(dataDir)
    })

    it('models.import refuses a file that is not GGUF, names the file and leaves nothing behind', async () => {
      const error = await failure('models.import', {
        fileName: 'notes.gguf',
        bytes: new TextEncoder().encode('not a model at all'),
      })
      expect(error.code).toBe('VALIDATION_FAILED')
      expect(error.message).toContain('notes.gguf is not a usable GGUF model')
      expect(error.message).not.toContain(dataDir)
      expect((await readdir(join(dataDir, 'models'))).filter((n) => !n.startsWith(TINY))).toEqual([])
      const wrongType = await failure('models.import', { fileName: 'notes.txt', bytes: tiny })
      expect(wrongType.message).toContain('is not a .gguf file')
    })

    it('models.import of more than the window can carry points to bureau models import', async () => {
      const error = await failure('models.import', {
        fileName: 'big.gguf',
        bytes: new Uint8Array(41 * 1024 * 1024),
      })
      expect(error.code).toBe('TOO_LARGE')
      expect(error.message).toContain('bureau models import')
    })

    it('models.use makes the model the local provider’s and that provider active', async () => {
      expect(await call('models.use', { id: TINY })).toEqual({ providerId: 'local', model: TINY })
      expect(app.settings.get().provider.active).toBe('local')
      expect(app.settings.get().providers.local?.model).toBe(TINY)
      const list = await call<Array<{ id: string; inUse: boolean }>>('models.list')
      expect(list.find((m) => m.id === TINY)?.inUse).toBe(true)
      expect((await failure('models.use', { id: 'not-installed' })).code).toBe('NOT_FOUND')
    })

    it('models.catalogue marks installed entries and whether they fit in memory', async () => {
      const catalogue =
        await call<Array<{ id: string; installed: boolean; fitsMemory: boolean }>>('models.catalogue')
      expect(catalogue.map((e) => e.id)).toEqual(['tiny-download', 'slow-download', 'full-download'])
      expect(catalogue.every((e) => e.installed === false && e.fitsMemory === true)).toBe(true)
    })

    it('models.speeds estimates each catalogue model’s speed from this machine (measured in the main process)', async () => {
      const speeds =
        await call<Array<{ id: string; speed: { wordsPerSecond: number; limitedBy: string } | null }>>(
          'models.speeds',
        )
      expect(speeds.map((s) => s.id)).toEqual(['tiny-download', 'slow-download', 'full-download'])
      for (const { speed } of speeds) {
        expect(speed?.wordsPerSecond).toBeGreaterThan(0)
        expect(['memory', 'cpu']).toContain(speed?.limitedBy)
      }
    })

    it('models.pull downloads with models.progress events until done; the model is then installed', async () => {
      const started = await call<{ state: string }>('models.pull', { id: 'tiny-download' })
      expect(started.state).toBe('downloading')
      await vi.waitUntil(() => progress.find((p) => p.id === 'tiny-download' && p.state === 'done'), {
        timeout: 5000,
      })
      const done = progress.filter((p) => p.id === 'tiny-download').at(-1)
      expect(done).toMatchObject({
        state: 'done',
        receivedBytes: tiny.byteLength,
        totalBytes: tiny.byteLength,
      })
      const list = await call<Array<{ id: string }>>('models.list')
      expect(list.map((m) => m.id)).toContain('tiny-download')
      const downloads = await call<Array<{ id: string; state: string }>>('models.downloads')
      expect(downloads.find((d) => d.id === 'tiny-download')?.state).toBe('done')
      expect((await failure('models.pull', { id: 'no-such-model' })).code).toBe('NOT_FOUND')
    })

    it('models.cancel stops a running download and says so in a cancelled event', async () => {
      await call('models.pull', { id: 'slow-download' })
      await vi.waitUntil(async () => {
        const d = await call<Array<{ id: string; receivedBytes: number }>>('models.downloads')
        return (d.find((x) => x.id === 'slow-download')?.receivedBytes ?? 0) > 0
      })
      expect(await call('models.cancel', { id: 'slow-download' })).toEqual({ cancelled: true })
      const cancelled = await vi.waitUntil(
        () => progress.find((p) => p.id === 'slow-download' && p.state === 'cancelled'),
        { timeout: 5000 },
      )
      expect(cancelled.message).toContain('cancelled')
      expect(await call('models.cancel', { id: 'slow-download' })).toEqual({ cancelled: false })
    })

    // A real ENOSPC without root: the partial file is a symlink to /dev/full (Linux only).
    it.runIf(existsSync('/dev/full'))(
      'a disk that fills up mid-download ends in a failed event saying so; the app goes on answering',
      async () => {
        const part = join(dataDir, 'models', 'full-download.gguf.part')
        await symlink('/dev/full', part)
        await call('models.pull', { id: 'full-download' })
        const failed = await vi.waitUntil(
          () => progress.find((p) => p.id === 'full-download' && p.state === 'failed'),
          { timeout: 5000 },
        )
        expect(failed.message).toMatch(/^The disk is full \(ENOSPC\).*the models folder.*free some space/)
        expect(failed.message).not.toContain(dataDir)
        await expect(lstat(part)).rejects.toThrow()
        const list = await call<Array<{ id: string }>>('models.list')
        expect(list.map((m) => m.id)).not.toContain('full-download')
      },
    )

    it('models.delete removes the file; an unknown id is NOT_FOUND', async () => {
      expect(await call('models.delete', { id: 'tiny-download' })).toEqual({ deleted: true })
      const list = await call<Array<{ id: string }>>('models.list')
      expect(list.map((m) => m.id)).not.toContain('tiny-download')
      expect((await failure('models.delete', { id: 'tiny-download' })).code).toBe('NOT_FOUND')
      expect((await failure('models.delete', { id: '../etc' })).code).toBe('VALIDATION_FAILED')
    })
  })

  describe('ollama.status', () => {
    it('lists the models of a running Ollama at localModels.ollamaUrl', async () => {
      const { port } = ollama.address() as AddressInfo
      await app.settings.update({ localModels: { ollamaUrl: `http://127.0.0.1:${port}` } })
      expect(await call('ollama.status')).toEqual({
        running: true,
        url: `http://127.0.0.1:${port}`,
        models: [{ name: 'qwen3:4b', sizeBytes: 2_500_000_000 }],
        error: null,
        hint: null,
      })
    })

    it('says Ollama is not running, with the install hint, when nothing answers', async () => {
      await app.settings.update({ localModels: { ollamaUrl: 'http://127.0.0.1:9' } })
      const status = await call<{ running: boolean; hint: string }>('ollama.status')
      expect(status).toMatchObject({ running: false, models: [] })
      expect(status.hint).toContain('ollama.com/download')
    })
  })

  describe('providers.test with a draft', () => {
    it('tests the base URL, model and key on screen instead of the saved ones, and stores nothing', async () => {
      llm.push({ text: 'OK' })
      const result = await call<{ ok: boolean; model: string }>('providers.test', {
        id: 'openai',
        draft: { baseUrl: llm.baseUrl, model: 'draft-model', apiKey: 'sk-draft-key' },
      })
      expect(result).toMatchObject({ ok: true, model: 'draft-model' })
      expect(llm.requests.at(-1)?.body).toMatchObject({ model: 'draft-model' })
      expect(llm.requests.at(-1)?.headers.authorization).toBe('Bearer sk-draft-key')
      expect(app.settings.get().providers.openai).toBeUndefined()
      expect(app.settings.getPublic().secrets['providers.openai.apiKey']?.set ?? false).toBe(false)
    })
  })
})
