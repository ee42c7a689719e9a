import { cp, mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createPiperEngine, loadSherpa } from '../../../src/main/voice/piper/piperEngine'
import { parseWav } from '../../../src/main/voice/wav/wavFile'
import { findThirdParty } from '../../support/requirements'
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
