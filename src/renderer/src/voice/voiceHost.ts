import type { IpcClient } from '../../../shared/ipc'
import type { RecordingTranscriber, VoiceHost } from './voicePorts'

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

/** Transcription of a recording by the host's OpenAI-compatible service. */
export function hostTranscriber(client: IpcClient): RecordingTranscriber {
  return {
    kind: 'recording',
    async transcribe(audio) {
      const result = await client.invoke('voice.transcribe', { audio: audio.bytes, mimeType: audio.mimeType })
      return result.text
    },
  }
}
