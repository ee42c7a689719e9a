import { describe, expect, it } from 'vitest'
import { detectEspeak } from '../../../src/main/voice/espeak/espeakBinary'
import { createEspeakEngine, parseEspeakVoices } from '../../../src/main/voice/espeak/espeakEngine'
import { parseWav } from '../../../src/main/voice/wav/wavFile'
import { describeNeeding } from '../../support/requirements'

// espeak-ng is installed on the dev machine and by .ci/run; these tests use the real binary.
const engine = createEspeakEngine()

describeNeeding(['espeak'], 'espeakEngine with espeak-ng', () => {
  describe('espeak-ng engine', () => {
    it('is detected with its version', async () => {
      const status = await detectEspeak()
      expect(status.available).toBe(true)
      expect(status.version).toMatch(/^\d+\.\d+/)
    })

    it('produces a valid WAV of plausible duration for a sentence', async () => {
      const text = 'The quarterly report shows that sales rose by twelve percent in the north.'
      const { audio, mimeType } = await engine.synthesize({ text })
      expect(mimeType).toBe('audio/wav')
      const info = parseWav(audio)
      expect(info).toMatchObject({ channels: 1, bitsPerSample: 16, sampleRate: 22_050 })
      // 13 words at about 175 words a minute: roughly 4.5 s; allow a wide margin for voices and versions.
      expect(info.durationMs).toBeGreaterThan(2_000)
      expect(info.durationMs).toBeLessThan(10_000)
      // The header carries the real sizes (espeak-ng --stdout writes placeholders).
      const view = new DataView(audio.buffer, audio.byteOffset)
      expect(view.getUint32(40, true)).toBe(audio.length - 44)
      // Not silence.
      let peak = 0
      for (let i = 44; i < audio.length - 1; i += 2) peak = Math.max(peak, Math.abs(view.getInt16(i, true)))
      expect(peak).toBeGreaterThan(1_000)
    })

    it('speaks faster at a higher rate', async () => {
      const text = 'One two three four five six seven eight nine ten.'
      const slow = parseWav((await engine.synthesize({ text, rate: 0.6 })).audio).durationMs
      const fast = parseWav((await engine.synthesize({ text, rate: 2 })).audio).durationMs
      expect(fast).toBeLessThan(slow * 0.6)
    })

    it('uses other voices and reads text starting with a dash as text, not as an option', async () => {
      const german = await engine.synthesize({ text: '-v de Das ist ein Test.', voice: 'de' })
      expect(parseWav(german.audio).durationMs).toBeGreaterThan(500)
    })

    it('refuses a malformed voice name and reports an unknown one', async () => {
      await expect(engine.synthesize({ text: 'Hello.', voice: '--help' })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
      })
      await expect(engine.synthesize({ text: 'Hello.', voice: 'xx-nonexistent' })).rejects.toMatchObject({
        code: 'HANDLER_FAILED',
      })
    })

    it('lists its voices', async () => {
      const voices = await engine.voices()
      expect(voices.length).toBeGreaterThan(20)
      expect(voices.map((v) => v.id)).toContain('en-us')
    })

    it('stops a synthesis when the signal aborts', async () => {
      const controller = new AbortController()
      const pending = engine.synthesize({ text: 'word '.repeat(2_000) }, controller.signal)
      controller.abort()
      await expect(pending).rejects.toMatchObject({ code: 'CANCELLED' })
    })

    it('says how to install it where it is missing', async () => {
      const missing = createEspeakEngine({ command: 'espeak-ng-not-installed-here', platform: 'linux' })
      expect(await missing.status()).toMatchObject({
        available: false,
        reason: expect.stringContaining('apt install espeak-ng'),
      })
      await expect(missing.synthesize({ text: 'Hello.' })).rejects.toMatchObject({
        code: 'UNAVAILABLE',
        message: expect.stringContaining('espeak-ng is not installed'),
      })
      const mac = createEspeakEngine({ command: '/nonexistent/espeak-ng', platform: 'darwin' })
      expect((await mac.status()).reason).toContain('brew install espeak-ng')
    })

    it('parses the voice list', () => {
      const output = [
        'Pty Language       Age/Gender VoiceName          File                 Other Languages',
        ' 5  af              --/M      Afrikaans          gmw/af',
        ' 2  en-us           --/M      English_(America)  gmw/en-US            (en 3)',
      ].join('\n')
      expect(parseEspeakVoices(output)).toEqual([
        { id: 'af', name: 'Afrikaans', language: 'af' },
        { id: 'en-us', name: 'English (America)', language: 'en-us' },
      ])
    })
  })
})
