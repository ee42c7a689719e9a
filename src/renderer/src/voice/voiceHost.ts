import type { IpcClient } from '../../../shared/ipc'
import { encodeWav } from '../../../shared/voice'
import type { RecordedAudio, RecordingTranscriber, VoiceHost } from './voicePorts'

/** The session's host side over the contract's `voice.*` routes and events. */
export function ipcVoiceHost(client: IpcClient): VoiceHost {
  return {
    ask: (input) => client.invoke('voice.ask', input),
    async cancel(askId) {
      await client.invoke('voice.cancel', { askId })
    },
    async interrupt(input) {
      await client.invoke('voice.interrupt', input)
    },
    reportMetrics(metrics) {
      // Logging is best effort: a failure must not disturb the conversation.
      void client.invoke('voice.metrics', metrics).catch(() => undefined)
    },
    onDelta: (listener) => client.on('voice.delta', listener),
    onDone: (listener) => client.on('voice.done', listener),
  }
}

/** Transcription of a recording by the host: its offline recognizers (which take WAV) or the OpenAI-compatible service. */
export function hostTranscriber(
  client: IpcClient,
  options: { wav?: boolean; engine?: string } = {},
): RecordingTranscriber {
  return {
    kind: 'recording',
    ...(options.engine ? { engine: options.engine } : {}),
    async transcribe(audio, onPartial) {
      const sent = options.wav ? await toWav16k(audio) : audio
      // Offline engines send the text of each finished segment while they work on the rest.
      const requestId = onPartial ? crypto.randomUUID() : undefined
      const off = requestId
        ? client.on('voice.partial', (event) => {
            if (event.requestId === requestId) onPartial?.(event.text)
          })
        : undefined
      try {
        const result = await client.invoke('voice.transcribe', {
          audio: sent.bytes,
          mimeType: sent.mimeType,
          ...(requestId ? { requestId } : {}),
        })
        return result.text
      } finally {
        off?.()
      }
    },
  }
}

const RATE = 16_000

/**
 * The recording (webm/opus from MediaRecorder) decoded and resampled to 16 kHz mono WAV by the
 * window's own audio stack; a recording it cannot decode goes as it is (the host then names the problem).
 */
async function toWav16k(audio: RecordedAudio): Promise<RecordedAudio> {
  if (/wav/i.test(audio.mimeType) || typeof OfflineAudioContext === 'undefined') return audio
  try {
    const decoded = await new OfflineAudioContext(1, 1, RATE).decodeAudioData(audio.bytes.slice().buffer)
    const render = new OfflineAudioContext(1, Math.max(1, Math.ceil(decoded.duration * RATE)), RATE)
    const source = render.createBufferSource()
    source.buffer = decoded
    source.connect(render.destination)
    source.start()
    const mono = await render.startRendering()
    return { bytes: encodeWav(mono.getChannelData(0), RATE), mimeType: 'audio/wav' }
  } catch {
    return audio
  }
}
