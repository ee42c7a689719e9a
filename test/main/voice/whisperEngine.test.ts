import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect } from 'vitest'
import { tinyWhisperModel } from '../../../scripts/tinyWhisperModel'
import { createWhisperEngine } from '../../../src/main/voice/whisper/whisperEngine'
import { checkWhisperModel } from '../../../src/main/voice/whisper/whisperModelFile'
import { AppError } from '../../../src/shared/errors'
import { findThirdParty } from '../../support/requirements'
import { tempDirs } from '../../support/tempDir'
import { itFast as it, itSoak } from '../../support/tier'

// whisper.cpp through @fugood/whisper.node, with a tiny random-weight model the project writes in
// whisper.cpp's format (the text is garbage; the binding, model load, mel, encoder, decoder and
// cancellation all run). A real model is used too when BUREAU_THIRD_PARTY_DIR holds whisper/ggml-*.bin.

const dirs = tempDirs('bureau-whisper-')
let dir = ''
let model = ''

/** A tone with pauses: not speech, but audio the encoder works through. */
function tone(seconds: number): Int16Array<ArrayBuffer> {
  const pcm = new Int16Array(16_000 * seconds)
  for (let i = 0; i < pcm.length; i++)
    pcm[i] =
      Math.floor(i / 8000) % 2 === 0 ? Math.round(8000 * Math.sin((2 * Math.PI * 220 * i) / 16_000)) : 0
  return pcm
}

beforeAll(async () => {
  dir = await dirs.make()
  model = join(dir, 'tiny.bin')
  await writeFile(model, tinyWhisperModel())
})
afterAll(() => dirs.cleanup())

describe('whisper.cpp model files', () => {
  it('walks the tiny model: header, vocabulary and every tensor', async () => {
    const info = await checkWhisperModel(model)
    expect(info).toMatchObject({ multilingual: true, audioLayers: 4, textLayers: 2 })
    expect(info.tensors).toBeGreaterThan(50)
  })

  it('names a truncated file, a GGUF file, random bytes and a missing file', async () => {
    const bytes = await readFile(model)
    const truncated = join(dir, 'truncated.bin')
    await writeFile(truncated, bytes.subarray(0, Math.floor(bytes.length * 0.7)))
    await expect(checkWhisperModel(truncated)).rejects.toThrow(/truncated/)
    const gguf = join(dir, 'chat.gguf')
    await writeFile(gguf, Buffer.concat([Buffer.from('GGUF'), Buffer.alloc(200)]))
    await expect(checkWhisperModel(gguf)).rejects.toThrow(/GGUF file/)
    const random = join(dir, 'random.bin')
    await writeFile(random, Buffer.alloc(5000, 7))
    await expect(checkWhisperModel(random)).rejects.toThrow(/not in ggml format/)
    await expect(checkWhisperModel(join(dir, 'none.bin'))).rejects.toThrow(/no such file/)
  })
})

describe('whisper.cpp engine', () => {
  it('loads the model in its child and transcribes (garbage text from random weights)', async () => {
    const engine = createWhisperEngine({ modelPath: async () => model, threads: 1 })
    try {
      expect(await engine.status()).toEqual({ state: 'ready' })
      const partials: string[] = []
      const result = await engine.transcribe({
        pcm: tone(2),
        language: 'en',
        onPartial: (text) => partials.push(text),
      })
      expect(typeof result.text).toBe('string')
      expect(result.text.length).toBeGreaterThan(0)
      expect(partials.length).toBeGreaterThan(0)
      // The child keeps the model: a second utterance runs in the same process.
      const again = await engine.transcribe({ pcm: tone(1) })
      expect(again.text.length).toBeGreaterThan(0)
    } finally {
      await engine.dispose()
    }
  }, 240_000)

  itSoak(
    'cancels mid-utterance, and the next utterance still works',
    async () => {
      const engine = createWhisperEngine({ modelPath: async () => model, threads: 1 })
      try {
        const controller = new AbortController()
        const long = engine.transcribe(
          { pcm: tone(120), language: 'en', onPartial: () => controller.abort() },
          controller.signal,
        )
        setTimeout(() => controller.abort(), 3_000)
        const error = await long.then(
          () => undefined,
          (e: unknown) => e,
        )
        expect(error).toBeInstanceOf(AppError)
        expect((error as AppError).code).toBe('CANCELLED')
        const after = await engine.transcribe({ pcm: tone(1), language: 'en' })
        expect(after.text.length).toBeGreaterThan(0)
      } finally {
        await engine.dispose()
      }
    },
    240_000,
  )

  it('says clearly when no model is installed or the file is damaged', async () => {
    const none = createWhisperEngine({ modelPath: async () => undefined })
    expect((await none.status()).state).toBe('needs-download')
    await expect(none.transcribe({ pcm: tone(1) })).rejects.toThrow(/bureau models pull whisper/)
    const bytes = await readFile(model)
    const truncated = join(dir, 'cut.bin')
    await writeFile(truncated, bytes.subarray(0, 100_000))
    const damaged = createWhisperEngine({ modelPath: async () => truncated })
    await expect(damaged.transcribe({ pcm: tone(1) })).rejects.toThrow(/truncated/)
  })

  const real = findThirdParty('whisper', 'ggml-tiny.en.bin') ?? findThirdParty('whisper', 'ggml-base.en.bin')
  it.skipIf(!real)(
    'transcribes speech with a real model from BUREAU_THIRD_PARTY_DIR',
    async () => {
      const { execFileSync } = await import('node:child_process')
      const { wavToRecognizerPcm } = await import('../../../src/main/voice/wav/pcm')
      const wav = execFileSync('espeak-ng', ['--stdout', 'Please open the quarterly report.'])
      const engine = createWhisperEngine({ modelPath: async () => real, threads: 2 })
      try {
        const result = await engine.transcribe({
          pcm: wavToRecognizerPcm(new Uint8Array(wav)),
          language: 'en',
        })
        expect(result.text.toLowerCase()).toMatch(/report/)
      } finally {
        await engine.dispose()
      }
    },
    240_000,
  )
})
