import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tinyWhisperModel } from '../../../scripts/tinyWhisperModel'
import { createVoiceService } from '../../../src/main/voice'
import { encodeWav } from '../../../src/shared/voice'
import { tempDirs } from '../../support/tempDir'
import { settingsStub } from './settingsStub'

// Live partial text through the voice service with whisper.cpp (the tiny random-weight model): a
// transcription that names a request id reports each finished segment as a voice.partial event.
// Soak tier: a whisper child and a model load take 10-20 s on a busy machine; the window's side of
// partial text is in the fast tier (test/renderer/voice/voiceSession.test.ts).

const dirs = tempDirs('bureau-whisper-partial-')
let model = ''

function tone(seconds: number): Int16Array<ArrayBuffer> {
  const pcm = new Int16Array(16_000 * seconds)
  for (let i = 0; i < pcm.length; i++)
    pcm[i] =
      Math.floor(i / 8000) % 2 === 0 ? Math.round(8000 * Math.sin((2 * Math.PI * 220 * i) / 16_000)) : 0
  return pcm
}

beforeAll(async () => {
  model = join(await dirs.make(), 'tiny.bin')
  await writeFile(model, tinyWhisperModel())
})
afterAll(() => dirs.cleanup())

describe('whisper partial text', () => {
  it('voice.transcribe with a request id sends the text so far as voice.partial events', async () => {
    const events: { event: string; payload: unknown }[] = []
    const voice = createVoiceService({
      settings: settingsStub({ stt: { engine: 'whisper' } }),
      whisperModelFile: model,
      events: { emit: (event, payload) => events.push({ event, payload }) },
    })
    try {
      const result = await voice.transcribe({
        audio: encodeWav(tone(2), 16_000),
        mimeType: 'audio/wav',
        requestId: 'utterance-1',
      })
      const partials = events.filter((e) => e.event === 'voice.partial')
      expect(partials.length).toBeGreaterThan(0)
      expect(partials.every((e) => (e.payload as { requestId: string }).requestId === 'utterance-1')).toBe(
        true,
      )
      // Each partial is the text so far: the last one is the whole result.
      expect((partials.at(-1)?.payload as { text: string } | undefined)?.text.trim()).toBe(result.text)
    } finally {
      await voice.dispose()
    }
  }, 240_000)
})
