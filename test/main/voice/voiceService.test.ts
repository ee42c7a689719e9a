import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Logger } from '../../../src/main/platform'
import { createVoiceService } from '../../../src/main/voice'
import { parseWav } from '../../../src/main/voice/wav/wavFile'
import { describeNeeding } from '../../support/requirements'
import { type ScriptedLlm, startScriptedLlm } from '../../support/scriptedLlm'
import { settingsStub } from './settingsStub'

let llm: ScriptedLlm
beforeAll(async () => {
  llm = await startScriptedLlm()
})
afterAll(() => llm.close())
beforeEach(() => llm.reset())

function recordingLogger() {
  const lines: Array<{ message: string; fields?: Record<string, unknown> }> = []
  const logger: Logger = {
    debug: () => {},
    info: (message, fields) => lines.push({ message, ...(fields ? { fields } : {}) }),
    warn: () => {},
    error: () => {},
    child: () => logger,
  }
  return { logger, lines }
}

describeNeeding(['espeak'], 'voiceService with espeak-ng', () => {
  describe('voice service', () => {
    it('lists the engines with availability, reasons and voices', async () => {
      const service = createVoiceService({ settings: settingsStub() })
      const { tts, stt } = await service.engines()
      expect(tts.map((e) => e.id)).toEqual(['espeak-ng', 'openai', 'web-speech'])
      expect(tts[0]).toMatchObject({ available: true, runsIn: 'host' })
      expect(tts[0]?.voices.length).toBeGreaterThan(10)
      // No URL set and no OpenAI-compatible provider: the reason says what to do.
      expect(tts[1]).toMatchObject({ available: false, reason: expect.stringContaining('Settings > Voice') })
      expect(tts[2]).toMatchObject({ runsIn: 'window' })
      expect(stt.map((e) => [e.id, e.available])).toEqual([
        ['openai', false],
        ['web-speech', true],
      ])
    })

    it('names the host audio goes to when an endpoint is set', async () => {
      const service = createVoiceService({ settings: settingsStub({ stt: { baseUrl: llm.baseUrl } }) })
      const { stt } = await service.engines()
      expect(stt[0]).toMatchObject({ available: true, endpoint: new URL(llm.baseUrl).host })
    })

    it('synthesizes with the engine, voice and rate of the settings by default', async () => {
      const settings = settingsStub({
        tts: { engine: 'openai', voice: 'echo', rate: 1.25, baseUrl: llm.baseUrl },
      })
      const service = createVoiceService({ settings })
      const result = await service.synthesize({ text: 'Good morning.' })
      expect(result).toMatchObject({ engine: 'openai', mimeType: 'audio/wav' })
      expect(result.durationMs).toBeGreaterThan(0)
      expect(llm.requests[0]?.body).toMatchObject({ voice: 'echo', speed: 1.25, model: 'tts-1' })
    })

    it('does not carry the saved voice over to another engine', async () => {
      const settings = settingsStub({ tts: { engine: 'openai', voice: 'echo' } })
      const service = createVoiceService({ settings })
      const result = await service.synthesize({ text: 'Hallo zusammen.', engine: 'espeak-ng' })
      expect(result.engine).toBe('espeak-ng')
      expect(parseWav(result.audio).durationMs).toBeGreaterThan(300)
    })

    it('explains that Web Speech runs in the window', async () => {
      const service = createVoiceService({ settings: settingsStub({ tts: { engine: 'web-speech' } }) })
      await expect(service.synthesize({ text: 'Hi.' })).rejects.toMatchObject({ code: 'UNSUPPORTED' })
    })

    it('transcribes with the language setting and logs the timing', async () => {
      llm.transcriptions.push({ text: 'Wie hoch war der Umsatz?' })
      const { logger, lines } = recordingLogger()
      const service = createVoiceService({
        settings: settingsStub({ stt: { baseUrl: llm.baseUrl, language: 'de' } }),
        logger,
      })
      const result = await service.transcribe({ audio: new Uint8Array(100), mimeType: 'audio/webm' })
      expect(result).toMatchObject({ text: 'Wie hoch war der Umsatz?', engine: 'openai' })
      expect(llm.requests[0]?.body).toMatchObject({ language: 'de' })
      expect(lines.find((l) => l.message === 'transcribed')?.fields).toMatchObject({ bytes: 100, chars: 24 })
    })

    it('logs the latency metrics the window measured', () => {
      const { logger, lines } = recordingLogger()
      const service = createVoiceService({ settings: settingsStub(), logger })
      service.reportMetrics({
        ttsEngine: 'espeak-ng',
        sttEngine: 'openai',
        transcriptMs: 410.4,
        firstAudioMs: 1290.6,
      })
      expect(lines).toEqual([
        {
          message: 'voice latency',
          fields: expect.objectContaining({
            tts: 'espeak-ng',
            transcriptMs: 410,
            firstAudioMs: 1291,
            firstTokenMs: null,
          }),
        },
      ])
    })
  })
})
