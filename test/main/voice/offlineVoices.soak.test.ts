import { afterAll, expect, it } from 'vitest'
import { createEspeakEngine } from '../../../src/main/voice/espeak/espeakEngine'
import { createFestivalEngine } from '../../../src/main/voice/festival/festivalEngine'
import { createPocketsphinxEngine } from '../../../src/main/voice/pocketsphinx/pocketsphinxEngine'
import { wavToRecognizerPcm } from '../../../src/main/voice/wav/pcm'
import { describeNeeding } from '../../support/requirements'
import { speakAndHear, VOICE_SENTENCES } from '../../support/wordErrorRate'

// Every test sentence, spoken by each offline voice and heard by PocketSphinx; the WER is printed.
const MAX_WER = { festival: 0.35, espeak: 0.9 }
const sphinx = createPocketsphinxEngine()
afterAll(() => sphinx.dispose())

describeNeeding(
  ['espeak', 'festival', 'pocketsphinx'],
  'offline voices heard by PocketSphinx (all sentences)',
  () => {
    it('Festival', async () => {
      const wer = await speakAndHear(createFestivalEngine(), sphinx, VOICE_SENTENCES, wavToRecognizerPcm)
      expect(wer).toBeLessThanOrEqual(MAX_WER.festival)
    }, 300_000)

    it('espeak-ng', async () => {
      const wer = await speakAndHear(createEspeakEngine(), sphinx, VOICE_SENTENCES, wavToRecognizerPcm)
      expect(wer).toBeLessThanOrEqual(MAX_WER.espeak)
    }, 300_000)
  },
)
