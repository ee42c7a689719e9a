import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import {
  TINY_VOICE_SAMPLE_RATE,
  TINY_VOICE_SAMPLES_PER_ID,
  writeTinyPiperVoice,
} from '../../../scripts/tinyPiperVoice'
import { onnxMetadata } from '../../../src/main/voice/piper/onnxModelFile'
import { createPiperEngine, loadSherpa } from '../../../src/main/voice/piper/piperEngine'
import { parseWav } from '../../../src/main/voice/wav/wavFile'
import { describeNeeding, findThirdParty } from '../../support/requirements'
import { tempDirs } from '../../support/tempDir'

const dirs = tempDirs('bureau-piper-')
afterAll(() => dirs.cleanup())

describe('Piper voices through sherpa-onnx', () => {
  it('loads the sherpa-onnx binding', () => {
    const binding = loadSherpa()
    expect(binding.reason).toBeUndefined()
    expect(binding.module?.version).toMatch(/^\d+\.\d+/)
  })

  it('says a voice needs downloading when none is installed', async () => {
    const engine = createPiperEngine({ voicesDir: join(await dirs.make(), 'voices') })
    const status = await engine.status()
    expect(status.state).toBe('needs-download')
    expect(status.reason).toMatch(/bureau models pull piper-/)
    await expect(engine.synthesize({ text: 'Hello.' })).rejects.toThrow(/No Piper voice is installed/)
    await expect(engine.synthesize({ text: 'Hello.', voice: 'piper-de_DE-x' })).rejects.toThrow(
      /"piper-de_DE-x" is not installed/,
    )
  })

  it('names an incomplete voice and a damaged one', async () => {
    const voicesDir = await dirs.make()
    await mkdir(join(voicesDir, 'half'))
    await writeFile(join(voicesDir, 'half', 'voice.onnx'), Buffer.alloc(100, 1))
    await mkdir(join(voicesDir, 'broken'))
    await writeFile(join(voicesDir, 'broken', 'voice.onnx'), Buffer.alloc(5000, 3))
    await writeFile(join(voicesDir, 'broken', 'tokens.txt'), 'a 1\nb 2\n')
    const engine = createPiperEngine({ voicesDir })
    await expect(engine.synthesize({ text: 'Hello.', voice: 'half' })).rejects.toThrow(
      /incomplete \(tokens.txt/,
    )
    await expect(engine.synthesize({ text: 'Hello.', voice: 'broken' })).rejects.toThrow(
      /"broken" could not be loaded .*damaged/,
    )
    // The engine is still usable after a failed voice.
    expect((await engine.voices()).map((v) => v.id)).toEqual(['broken', 'half'])
  })

  const real = findThirdParty('piper', 'vits-piper-en_US-amy-low')
  it.skipIf(!real)(
    'speaks a sentence with a real voice from BUREAU_THIRD_PARTY_DIR',
    async () => {
      const voicesDir = await dirs.make()
      await cp(real as string, join(voicesDir, 'piper-en_US-amy-low'), { recursive: true })
      const engine = createPiperEngine({ voicesDir })
      const { audio } = await engine.synthesize({ text: 'The meeting starts at ten tomorrow morning.' })
      const info = parseWav(audio)
      expect(info.durationMs).toBeGreaterThan(1_500)
      expect(info.durationMs).toBeLessThan(8_000)
    },
    60_000,
  )
})

// The project's tiny voice (scripts/tinyPiperVoice.ts), published the way Piper publishes its voices:
// Bureau prepares it for sherpa-onnx (token table, model metadata), which phonemizes with the system's
// espeak-ng data and runs the model.
describeNeeding(['espeak'], 'Piper voice as published, through sherpa-onnx', () => {
  it('prepares a voice as Piper publishes it and speaks a sentence with it', async () => {
    const voicesDir = await dirs.make()
    const folder = join(voicesDir, 'piper-en_US-tiny-x_low')
    writeTinyPiperVoice(folder, 'en_US-tiny-x_low')
    const engine = createPiperEngine({ voicesDir })
    expect((await engine.status()).state).toBe('ready')
    const { audio, mimeType } = await engine.synthesize({ text: 'The meeting starts at ten.' })
    expect(mimeType).toBe('audio/wav')
    const info = parseWav(audio)
    expect(info.sampleRate).toBe(TINY_VOICE_SAMPLE_RATE)
    const samples = info.dataLength / 2
    // One block of samples per phoneme id: espeak-ng found phonemes for the sentence.
    expect(samples % TINY_VOICE_SAMPLES_PER_ID).toBe(0)
    expect(samples / TINY_VOICE_SAMPLES_PER_ID).toBeGreaterThan(10)
    expect((await readdir(folder)).sort()).toEqual([
      'en_US-tiny-x_low.onnx.json',
      'en_US-tiny-x_low.sherpa.onnx',
      'tokens.txt',
    ])
    const metadata = onnxMetadata(await readFile(join(folder, 'en_US-tiny-x_low.sherpa.onnx')), 'prepared')
    expect(Object.fromEntries(metadata)).toMatchObject({
      comment: 'piper',
      sample_rate: '16000',
      voice: 'en-us',
    })
    // A longer sentence is longer audio: the model really ran on what was said.
    const longer = parseWav(
      (await engine.synthesize({ text: 'The meeting starts at ten, and the budget review follows at noon.' }))
        .audio,
    )
    expect(longer.dataLength).toBeGreaterThan(info.dataLength)
  })

  it('names a voice whose config is damaged and speaks nothing', async () => {
    const voicesDir = await dirs.make()
    const folder = join(voicesDir, 'piper-en_US-bad-x_low')
    writeTinyPiperVoice(folder, 'en_US-bad-x_low')
    await writeFile(join(folder, 'en_US-bad-x_low.onnx.json'), '{"audio": {"sample_rate": 16000}}')
    const engine = createPiperEngine({ voicesDir })
    await expect(engine.synthesize({ text: 'Hello.' })).rejects.toThrow(
      /en_US-bad-x_low.onnx.json is not a Piper voice config \(.*espeak/,
    )
    // The original model is left where it was.
    expect(await readdir(folder)).toContain('en_US-bad-x_low.onnx')
  })
})
