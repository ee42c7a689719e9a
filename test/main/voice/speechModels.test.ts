import { createHash } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tinyPiperConfig, tinyPiperModel } from '../../../scripts/tinyPiperVoice'
import {
  createSpeechModelStore,
  SPEECH_CATALOGUE,
  type SpeechModelEntry,
} from '../../../src/main/voice/models/speechModels'
import { onnxMetadata } from '../../../src/main/voice/piper/onnxModelFile'
import { tempDirs } from '../../support/tempDir'

// Speech-model downloads against a real HTTP server on 127.0.0.1: progress, resume after a dropped
// connection (HTTP Range), a checksum mismatch, and removal.
const dirs = tempDirs('bureau-speech-models-')
const model = Buffer.alloc(300_000)
for (let i = 0; i < model.length; i++) model[i] = (i * 31) % 251
const tokens = Buffer.from('_ 0\na 1\nb 2\n')
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex')
/** A voice as Piper publishes it (model and config, no token table): the project's tiny voice. */
const publishedModel = tinyPiperModel()
const publishedConfig = Buffer.from(tinyPiperConfig())
let server: Server
let base = ''
/** Requests seen, and whether the next full-file answer should drop halfway. */
const seen: { path: string; range?: string }[] = []
let dropNext = false

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? ''
    seen.push({ path, ...(req.headers.range ? { range: req.headers.range } : {}) })
    const body = path.endsWith('tokens.txt')
      ? tokens
      : path.endsWith('/published.onnx') || path.endsWith('/damaged.onnx')
        ? publishedModel
        : path.endsWith('/published.onnx.json')
          ? publishedConfig
          : path.endsWith('/damaged.onnx.json')
            ? Buffer.from('{"audio": ')
            : model
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '')
    if (range) {
      const from = Number(range[1])
      res.writeHead(206, {
        'content-length': body.length - from,
        'content-range': `bytes ${from}-${body.length - 1}/${body.length}`,
      })
      res.end(body.subarray(from))
      return
    }
    res.writeHead(200, { 'content-length': body.length, connection: 'close' })
    if (dropNext && body === model) {
      dropNext = false
      res.write(body.subarray(0, 120_000), () => res.destroy())
      return
    }
    res.end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
  await dirs.cleanup()
})

function voice(modelSha: string | null): SpeechModelEntry {
  return {
    id: 'piper-test_VOICE-low',
    kind: 'piper',
    name: 'Test voice',
    language: 'en',
    licence: 'CC0-1.0',
    files: [
      { name: 'voice.onnx', url: `${base}/voice.onnx`, sizeBytes: model.length, sha256: modelSha },
      { name: 'tokens.txt', url: `${base}/tokens.txt`, sizeBytes: tokens.length, sha256: sha(tokens) },
    ],
  }
}

describe('speech model downloads', () => {
  it('downloads with progress, resumes a dropped connection, verifies and writes a receipt', async () => {
    const dataDir = await dirs.make()
    const store = createSpeechModelStore({ dataDir, catalogue: [voice(sha(model))] })
    const progress: { file: string; received: number; resumes: number }[] = []
    seen.length = 0
    dropNext = true
    const installed = await store.pull('piper-test_VOICE-low', {
      onProgress: (file, p) => progress.push({ file, received: p.receivedBytes, resumes: p.resumes }),
    })
    expect(installed.files).toEqual([
      { name: 'voice.onnx', sha256: sha(model) },
      { name: 'tokens.txt', sha256: sha(tokens) },
    ])
    expect(installed.sizeBytes).toBe(model.length + tokens.length)
    // The drop was resumed with a Range request from where the bytes stopped.
    expect(
      seen.some((r) => r.path === '/voice.onnx' && r.range?.startsWith('bytes=') && r.range !== 'bytes=0-'),
    ).toBe(true)
    expect(progress.some((p) => p.file === 'voice.onnx' && p.resumes > 0)).toBe(true)
    expect(progress.filter((p) => p.file === 'voice.onnx').at(-1)?.received).toBe(model.length)
    expect(await readFile(join(installed.dir, 'voice.onnx'))).toEqual(model)
    expect((await store.list()).map((m) => m.id)).toEqual(['piper-test_VOICE-low'])
    await store.remove('piper-test_VOICE-low')
    expect(await store.list()).toEqual([])
  })

  it('rejects a checksum mismatch and keeps nothing it could mistake for a model', async () => {
    const dataDir = await dirs.make()
    const store = createSpeechModelStore({ dataDir, catalogue: [voice('0'.repeat(64))] })
    await expect(store.pull('piper-test_VOICE-low')).rejects.toThrow(/sha256 is [0-9a-f]{64}, expected 0{64}/)
    expect(await store.list()).toEqual([])
    // Nothing was kept to resume from, so no partial folder is left either.
    expect(await store.partialBytes('piper-test_VOICE-low')).toBe(0)
    expect(await readdir(join(dataDir, 'speech'))).toEqual([])
  })

  it('names an unknown model and a model that is not installed', async () => {
    const store = createSpeechModelStore({ dataDir: await dirs.make(), catalogue: [voice(null)] })
    await expect(store.pull('whisper-huge')).rejects.toThrow(/not a speech model Bureau knows/)
    await expect(store.remove('piper-test_VOICE-low')).rejects.toThrow(/No installed speech model/)
  })
})

/** A catalogue entry in the shape of Piper's own voices: `<voice>.onnx` and `<voice>.onnx.json`. */
function published(voice: 'published' | 'damaged'): SpeechModelEntry {
  return {
    id: `piper-en_US-${voice}-x_low`,
    kind: 'piper',
    name: 'Published voice',
    language: 'en',
    licence: 'CC0-1.0',
    files: [
      {
        name: `${voice}.onnx`,
        url: `${base}/${voice}.onnx`,
        sizeBytes: publishedModel.length,
        sha256: sha(publishedModel),
      },
      { name: `${voice}.onnx.json`, url: `${base}/${voice}.onnx.json`, sizeBytes: 5_000, sha256: null },
    ],
  }
}

describe('Piper voices as Piper publishes them', () => {
  it('are verified against their pinned digest, then prepared for sherpa-onnx; the receipt says both', async () => {
    const dataDir = await dirs.make()
    const store = createSpeechModelStore({ dataDir, catalogue: [published('published')] })
    const installed = await store.pull('piper-en_US-published-x_low')
    expect(installed.files.map((f) => f.name)).toEqual([
      'published.sherpa.onnx',
      'tokens.txt',
      'published.onnx.json',
    ])
    const prepared = await readFile(join(installed.dir, 'published.sherpa.onnx'))
    expect(installed.files[0]?.sha256).toBe(sha(prepared))
    expect(onnxMetadata(prepared, 'prepared').get('comment')).toBe('piper')
    const tokenLines = (await readFile(join(installed.dir, 'tokens.txt'), 'utf8')).split('\n').filter(Boolean)
    expect(tokenLines.length).toBe(Object.keys(JSON.parse(publishedConfig.toString()).phoneme_id_map).length)
    const receipt = JSON.parse(await readFile(join(installed.dir, 'speech-model.json'), 'utf8'))
    expect(receipt.downloaded).toEqual([
      { name: 'published.onnx', sha256: sha(publishedModel) },
      { name: 'published.onnx.json', sha256: sha(publishedConfig) },
    ])
    expect((await store.list()).map((m) => m.id)).toEqual(['piper-en_US-published-x_low'])
  })

  it('discards a download that is not a usable voice, with an error naming what is wrong', async () => {
    const dataDir = await dirs.make()
    const store = createSpeechModelStore({ dataDir, catalogue: [published('damaged')] })
    await expect(store.pull('piper-en_US-damaged-x_low')).rejects.toThrow(
      /"piper-en_US-damaged-x_low" was downloaded but is not a usable Piper voice, so it was discarded: damaged.onnx.json is not JSON/,
    )
    expect(await store.list()).toEqual([])
    expect(await store.partialBytes('piper-en_US-damaged-x_low')).toBe(0)
  })
})

describe('the speech-model catalogue', () => {
  it('pins a sha256 for every whisper.cpp model and for the English Piper voices it recommends', () => {
    const pinned = (id: string) =>
      SPEECH_CATALOGUE.find((e) => e.id === id)?.files.every((f) => f.sha256 !== null)
    for (const entry of SPEECH_CATALOGUE.filter((e) => e.kind === 'whisper')) {
      expect(entry.files).toHaveLength(1)
      expect(entry.files[0]?.sha256, entry.id).toMatch(/^[0-9a-f]{64}$/)
    }
    expect(pinned('piper-en_US-amy-medium')).toBe(true)
    expect(pinned('piper-en_US-lessac-medium')).toBe(true)
    // Every Piper voice comes from Piper's own repository at a tagged revision, as model and config.
    for (const entry of SPEECH_CATALOGUE.filter((e) => e.kind === 'piper')) {
      expect(entry.files.map((f) => f.url.split('/').pop())).toEqual([
        `${entry.id.slice('piper-'.length)}.onnx`,
        `${entry.id.slice('piper-'.length)}.onnx.json`,
      ])
      expect(entry.files[0]?.url).toMatch(
        /^https:\/\/huggingface\.co\/rhasspy\/piper-voices\/resolve\/v1\.0\.0\//,
      )
    }
  })
})
