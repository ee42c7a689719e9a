import { afterAll, describe, expect } from 'vitest'
import { createEspeakEngine } from '../../../src/main/voice/espeak/espeakEngine'
import { createFestivalEngine } from '../../../src/main/voice/festival/festivalEngine'
import { createPocketsphinxEngine } from '../../../src/main/voice/pocketsphinx/pocketsphinxEngine'
import { wavToRecognizerPcm } from '../../../src/main/voice/wav/pcm'
import { parseWav } from '../../../src/main/voice/wav/wavFile'
import { describeNeeding } from '../../support/requirements'
import { itFast as it, itSoak } from '../../support/tier'
import { speakAndHear, VOICE_SENTENCES, wordErrorRate } from '../../support/wordErrorRate'

// Real engines end to end: espeak-ng and Festival speak known sentences, PocketSphinx hears them
// through Bureau's recognizer interface (resampled from each voice's own rate to 16 kHz). Synthetic
// voices and a small-vocabulary-free recognizer make a loose bound the honest check: the printed
// WER is the number to watch.
/**
 * Loose on purpose (what this old recognizer makes of synthetic voices, with room for versions):
 * Festival's HTS voice is heard almost word for word; espeak-ng's formant voice mostly is not.
 */
const MAX_WER = { festival: 0.35, espeak: 0.9 }

const sphinx = createPocketsphinxEngine()
afterAll(() => sphinx.dispose())
// One sentence per voice here; offlineVoices.soak.test.ts hears all of them.
const sentences = VOICE_SENTENCES.slice(0, 1)

describeNeeding(['pocketsphinx'], 'PocketSphinx recognizer', () => {
  it('is ready and refuses a language it has no model for', async () => {
    expect(await sphinx.status()).toEqual({ state: 'ready' })
    await expect(sphinx.transcribe({ pcm: new Int16Array(16_000), language: 'de' })).rejects.toThrow(
      /only its US English model/,
    )
  })

  it('hears nothing in silence', async () => {
    const heard = await sphinx.transcribe({ pcm: new Int16Array(16_000) })
    expect(heard.text).toBe('')
  })

  it('can be cancelled', async () => {
    const controller = new AbortController()
    controller.abort()
    await expect(sphinx.transcribe({ pcm: new Int16Array(16_000) }, controller.signal)).rejects.toThrow(
      /cancelled/,
    )
  })
})

describeNeeding(['espeak', 'pocketsphinx'], 'espeak-ng → PocketSphinx', () => {
  it('transcribes espeak-ng sentences within the loose WER bound', async () => {
    expect(
      await speakAndHear(createEspeakEngine(), sphinx, VOICE_SENTENCES.slice(1, 2), wavToRecognizerPcm),
    ).toBeLessThanOrEqual(MAX_WER.espeak)
  }, 120_000)
})

describeNeeding(['festival', 'pocketsphinx'], 'Festival → PocketSphinx', () => {
  const festival = createFestivalEngine()

  it('lists its HTS voice and speaks a sentence of plausible length', async () => {
    expect(await festival.status()).toEqual({ state: 'ready' })
    expect((await festival.voices()).map((v) => v.id)).toContain('cmu_us_slt_arctic_hts')
    const text = 'The meeting starts at ten.'
    const normal = parseWav((await festival.synthesize({ text })).audio).durationMs
    expect(normal).toBeGreaterThan(800)
    expect(normal).toBeLessThan(6_000)
  }, 60_000)

  it('names a voice it does not have', async () => {
    await expect(festival.synthesize({ text: 'Hello.', voice: 'no_such_voice' })).rejects.toThrow(
      /no voice "no_such_voice"/,
    )
  })

  itSoak(
    'transcribes Festival sentences within the loose WER bound',
    async () => {
      expect(await speakAndHear(festival, sphinx, sentences, wavToRecognizerPcm)).toBeLessThanOrEqual(
        MAX_WER.festival,
      )
    },
    120_000,
  )
})

describe('word error rate', () => {
  it('counts substitutions, deletions and insertions', () => {
    expect(wordErrorRate('open the report', 'open the report')).toBe(0)
    expect(wordErrorRate('open the report', 'open a report')).toBeCloseTo(1 / 3)
    expect(wordErrorRate('open the report', 'open report now please')).toBeCloseTo(3 / 3)
  })
})
