import { createHash } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { tinyPiperConfig, tinyPiperModel } from '../../../scripts/tinyPiperVoice'
import { createSpeechModelStore } from '../../../src/main/voice'
import type { SpeechModelProgress } from '../../../src/shared/ipc'
import { type IpcHost, startIpcHost } from '../../support/ipcHost'
import { stubEnv } from '../../support/stubEnv'
import { tempDirs } from '../../support/tempDir'

// The voice.models* routes over the HTTP host, downloading from a real server on 127.0.0.1 (the
// catalogue's files mirrored there through BUREAU_SPEECH_MODELS_URL): the list with sizes and
// licences, progress events, cancel and resume with HTTP Range, a failure in words, removal read back.
const dirs = tempDirs('bureau-speech-routes-')
const FILE_BYTES = 400_000
const bytesOf = (path: string) => {
  const seed = createHash('sha256').update(path).digest()
  const out = Buffer.alloc(FILE_BYTES)
  for (let i = 0; i < out.length; i++) out[i] = (seed[i % 32] ?? 0) ^ (i & 0xff)
  return out
}
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex')
/** Piper voices are served as the project's tiny voice (a real, loadable model), padded to watch its download. */
const voiceModel = tinyPiperModel({ padBytes: FILE_BYTES })
const voiceConfig = Buffer.from(tinyPiperConfig())
const bodyOf = (path: string) =>
  path.endsWith('.onnx.json') ? voiceConfig : path.endsWith('.onnx') ? voiceModel : bytesOf(path)

let server: Server
let dataDir = ''
let running: IpcHost
const ranges: { path: string; range: string }[] = []
/** Paths the server answers slowly (16 KB every 15 ms), so a download can be cancelled midway. */
const slow = new Set<string>()

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? ''
    if (path.includes('/whisper-small/')) {
      res.writeHead(404).end('gone')
      return
    }
    const body = bodyOf(path)
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '')
    const from = range ? Number(range[1]) : 0
    if (range) ranges.push({ path, range: req.headers.range ?? '' })
    res.writeHead(range ? 206 : 200, {
      'content-length': body.length - from,
      ...(range ? { 'content-range': `bytes ${from}-${body.length - 1}/${body.length}` } : {}),
    })
    if (!slow.has(path)) {
      res.end(body.subarray(from))
      return
    }
    let at = from
    const timer = setInterval(() => {
      if (res.destroyed) return clearInterval(timer)
      const next = Math.min(at + 16_384, body.length)
      res.write(body.subarray(at, next))
      at = next
      if (at >= body.length) {
        clearInterval(timer)
        res.end()
      }
    }, 15)
    res.on('close', () => clearInterval(timer))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  stubEnv({ BUREAU_SPEECH_MODELS_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mirror` })
  dataDir = await dirs.make()
  running = await startIpcHost({
    dataDir,
    workspaceDir: await dirs.make(),
    token: 'speech-routes',
    events: ['voice.modelProgress'],
  })
})
afterAll(async () => {
  await running?.stop()
  vi.unstubAllEnvs()
  await new Promise((resolve) => server.close(resolve))
  await dirs.cleanup()
})

const progressOf = (id: string) =>
  running.events
    .filter((e) => e.event === 'voice.modelProgress' && e.payload.id === id)
    .map((e) => e.payload as unknown as SpeechModelProgress)
const ended = (id: string, state: SpeechModelProgress['state']) =>
  running.waitForEvent(
    (e) => e.event === 'voice.modelProgress' && e.payload.id === id && e.payload.state === state,
  )

describe('voice.models routes', () => {
  it('lists whisper models and Piper voices with size and licence, none installed', async () => {
    const models = await running.client.invoke('voice.models')
    expect(models.map((m) => m.id)).toEqual(
      expect.arrayContaining(['whisper-tiny.en', 'whisper-base', 'piper-en_US-amy-medium']),
    )
    const tiny = models.find((m) => m.id === 'whisper-tiny.en')
    expect(tiny).toMatchObject({ kind: 'whisper', language: 'en', installed: false, partialBytes: 0 })
    expect(tiny?.sizeBytes).toBeGreaterThan(70_000_000)
    expect(tiny?.licence).toMatch(/MIT/)
    for (const m of models) expect(m.licence.length).toBeGreaterThan(2)
  })

  it('downloads with progress, cancels keeping the bytes, resumes with a Range request, removes', async () => {
    const id = 'piper-en_US-ljspeech-medium'
    slow.add(`/mirror/${id}/en_US-ljspeech-medium.onnx`)
    const started = await running.client.invoke('voice.models.pull', { id })
    expect(started).toMatchObject({ id, state: 'downloading', resumedBytes: 0 })
    await running.waitForEvent(
      (e) =>
        e.event === 'voice.modelProgress' && e.payload.id === id && Number(e.payload.receivedBytes) > 50_000,
    )
    expect(await running.client.invoke('voice.models.cancel', { id })).toEqual({ cancelled: true })
    const cancelled = await ended(id, 'cancelled')
    expect(String(cancelled.payload.message)).toMatch(/kept/)
    const stopped = (await running.client.invoke('voice.models')).find((m) => m.id === id)
    expect(stopped?.installed).toBe(false)
    expect(stopped?.partialBytes).toBeGreaterThan(50_000)

    slow.clear()
    const resumed = await running.client.invoke('voice.models.pull', { id })
    expect(resumed.resumedBytes).toBe(stopped?.partialBytes)
    await ended(id, 'done')
    expect(ranges.some((r) => r.path.endsWith('.onnx') && r.range !== 'bytes=0-')).toBe(true)
    const received = progressOf(id).map((p) => p.receivedBytes)
    const installed = (await running.client.invoke('voice.models')).find((m) => m.id === id)
    expect(installed).toMatchObject({ installed: true, partialBytes: 0 })
    expect(received.at(-1)).toBe(installed?.installedBytes)
    // The voice was prepared for sherpa-onnx: the model with its metadata, a token table, the config.
    expect(installed?.installedBytes).toBeGreaterThan(voiceModel.length + voiceConfig.length)
    // The receipt records the digests the downloaded bytes really have, and those of the prepared files.
    const stored = await createSpeechModelStore({ dataDir }).get(id)
    expect(stored?.files.map((f) => f.name)).toEqual([
      'en_US-ljspeech-medium.sherpa.onnx',
      'tokens.txt',
      'en_US-ljspeech-medium.onnx.json',
    ])
    expect(stored?.files[2]?.sha256).toBe(sha(voiceConfig))
    const engines = await running.client.invoke('voice.engines')
    expect(engines.tts.find((e) => e.id === 'piper')?.voices.map((v) => v.id)).toContain(id)

    const removed = await running.client.invoke('voice.models.remove', { id })
    expect(removed).toMatchObject({ id, installed: false, installedBytes: null, partialBytes: 0 })
    expect(await createSpeechModelStore({ dataDir }).get(id)).toBeUndefined()
  })

  it('a server error ends the download in words without the host path; nothing is installed', async () => {
    const id = 'whisper-small'
    await running.client.invoke('voice.models.pull', { id })
    const failed = await ended(id, 'failed')
    const message = String(failed.payload.message)
    expect(message).toMatch(/404/)
    expect(message).not.toContain(dataDir)
    const listed = (await running.client.invoke('voice.models')).find((m) => m.id === id)
    expect(listed).toMatchObject({ installed: false, download: { state: 'failed' } })
  })

  it('a mirror serving other bytes than the pinned file fails the checksum; nothing is installed', async () => {
    const id = 'whisper-tiny.en'
    await running.client.invoke('voice.models.pull', { id })
    const failed = await ended(id, 'failed')
    expect(String(failed.payload.message)).toMatch(
      /sha256 is [0-9a-f]{64}, expected 921e4cf8686fdd993dcd081a5da5b6c365bfde1162e72b08d75ac75289920b1f/,
    )
    const listed = (await running.client.invoke('voice.models')).find((m) => m.id === id)
    expect(listed).toMatchObject({ installed: false, partialBytes: 0 })
  })

  it('refuses unknown ids, removing what is not there, and a hostile id', async () => {
    await expect(running.client.invoke('voice.models.pull', { id: 'whisper-huge' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
    await expect(
      running.client.invoke('voice.models.remove', { id: 'whisper-tiny.en' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(running.client.invoke('voice.models.remove', { id: '../models' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    })
  })
})
