import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { ollamaHandlers } from '../../../src/main/llm'
import {
  type OllamaPullProgress,
  probeOllama,
  pullOllamaModel,
} from '../../../src/main/llm/ollama/ollamaStatus'
import type { OllamaPullProgressEvent } from '../../../src/shared/ipc'

let server: Server
let base: string
/** What the scripted server answers to /api/tags. */
let tags: { status: number; body: string } = { status: 200, body: '{"models":[]}' }
let pullLines: string[] = []
const pulled: unknown[] = []

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/api/tags') {
      res.writeHead(tags.status, { 'content-type': 'application/json' })
      res.end(tags.body)
      return
    }
    if (req.url === '/api/pull' && req.method === 'POST') {
      let body = ''
      req.on('data', (c) => (body += c))
      req.on('end', () => {
        pulled.push(JSON.parse(body))
        res.writeHead(200, { 'content-type': 'application/x-ndjson' })
        const lines = [...pullLines]
        const next = () => {
          const line = lines.shift()
          if (line === undefined) return res.end()
          // Split each line in two writes: the client must join chunks into lines.
          res.write(line.slice(0, 5))
          res.write(`${line.slice(5)}\n`, () => setTimeout(next, 5))
        }
        next()
      })
      return
    }
    res.writeHead(404)
    res.end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise((resolve) => server.close(resolve)))

describe('Ollama detection against a scripted /api/tags and /api/pull', () => {
  it('lists the installed models when Ollama runs', async () => {
    tags = {
      status: 200,
      body: JSON.stringify({ models: [{ name: 'qwen3:8b', size: 5_200_000_000 }, { name: 'llama3.2:3b' }] }),
    }
    expect(await probeOllama(`${base}/api`)).toEqual({
      running: true,
      url: base,
      models: [
        { name: 'qwen3:8b', sizeBytes: 5_200_000_000 },
        { name: 'llama3.2:3b', sizeBytes: null },
      ],
    })
  })

  it('nothing listening, an error status or garbage: not running, with the reason and the install hint', async () => {
    const closed = await probeOllama('http://127.0.0.1:9', { timeoutMs: 1000 })
    expect(closed).toMatchObject({ running: false, error: 'Nothing answers at http://127.0.0.1:9.' })
    expect(closed.running === false && closed.hint).toContain('ollama.com/download')
    tags = { status: 500, body: 'oops' }
    expect(await probeOllama(base)).toMatchObject({ running: false, error: expect.stringContaining('500') })
    tags = { status: 200, body: '<html>router login</html>' }
    expect(await probeOllama(base)).toMatchObject({
      running: false,
      error: expect.stringContaining("not Ollama's model list"),
    })
  })

  it('pulls a model with its streamed progress', async () => {
    pullLines = [
      '{"status":"pulling manifest"}',
      '{"status":"pulling abc","total":100,"completed":40}',
      '{"status":"pulling abc","total":100,"completed":100}',
      '{"status":"success"}',
    ]
    const events: OllamaPullProgress[] = []
    await pullOllamaModel(base, 'qwen3:1.7b', { onProgress: (p) => events.push(p) })
    expect(pulled.at(-1)).toEqual({ model: 'qwen3:1.7b', stream: true })
    expect(events).toEqual([
      { status: 'pulling manifest', completedBytes: null, totalBytes: null },
      { status: 'pulling abc', completedBytes: 40, totalBytes: 100 },
      { status: 'pulling abc', completedBytes: 100, totalBytes: 100 },
      { status: 'success', completedBytes: null, totalBytes: null },
    ])
  })

  it('an error line, garbage or a stream without success fail with a clear message', async () => {
    pullLines = ['{"status":"pulling manifest"}', '{"error":"pull model manifest: file does not exist"}']
    await expect(pullOllamaModel(base, 'nope:1b')).rejects.toThrow(
      /could not pull nope:1b: pull model manifest/,
    )
    pullLines = ['not json at all']
    await expect(pullOllamaModel(base, 'x')).rejects.toThrow(/not JSON/)
    pullLines = ['{"status":"pulling manifest"}']
    await expect(pullOllamaModel(base, 'x')).rejects.toThrow(/ended without "success"/)
  })

  it('the ollama.pull route answers at once and reports progress, then done or the failure, as events', async () => {
    const events: OllamaPullProgressEvent[] = []
    const handlers = ollamaHandlers({ url: () => base, emit: (p) => events.push(p) })
    pullLines = [
      '{"status":"pulling abc","total":100,"completed":50}',
      '{"status":"pulling abc","total":100,"completed":100}',
      '{"status":"success"}',
    ]
    expect(handlers['ollama.pull']({ model: 'qwen3:4b' })).toEqual({ started: true })
    await vi.waitUntil(() => events.find((e) => e.state !== 'pulling'), { timeout: 5000 })
    expect(events.map((e) => [e.model, e.state, e.completedBytes])).toEqual([
      ['qwen3:4b', 'pulling', 50],
      ['qwen3:4b', 'pulling', 100],
      ['qwen3:4b', 'pulling', null],
      ['qwen3:4b', 'done', null],
    ])

    events.length = 0
    pullLines = ['{"error":"pull model manifest: file does not exist"}']
    handlers['ollama.pull']({ model: 'nope:1b' })
    const end = await vi.waitUntil(() => events.find((e) => e.state !== 'pulling'), { timeout: 5000 })
    expect(end).toMatchObject({
      model: 'nope:1b',
      state: 'failed',
      message: 'Ollama could not pull nope:1b: pull model manifest: file does not exist',
    })
  })
})
