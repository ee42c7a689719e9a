import type { IpcClient } from '../../../shared/ipc'
import type { PublicSettings } from '../../../shared/settings'
import type { SpokenSentence } from '../../../shared/voice'
import type { AudioPlayback } from './audioPlayback'
import type { SpeechOutput } from './voicePorts'

/** Host engines (espeak-ng, OpenAI-compatible): the host synthesizes, the window plays the bytes. */
export function hostSpeech(
  client: Pick<IpcClient, 'invoke'>,
  playback: AudioPlayback,
  engine: 'espeak-ng' | 'openai' | 'festival' | 'piper',
): SpeechOutput<Uint8Array> {
  return {
    engine,
    async prepare(sentence: SpokenSentence) {
      // The host applies the voice and rate of the settings for its configured engine.
      const result = await client.invoke('voice.synthesize', { text: sentence.text, engine })
      return result.audio
    },
    play: (audio, _sentence, signal, onStarted) => playback.play(audio, signal, onStarted),
  }
}

/** The window's system voices (Web Speech speechSynthesis): nothing to prepare, the browser speaks. */
export function systemSpeech(options: { voice: string | null; rate: number }): SpeechOutput<SpokenSentence> {
  return {
    engine: 'web-speech',
    prepare: async (sentence) => sentence,
    play(sentence, _same, signal, onStarted) {
      return new Promise<void>((resolve, reject) => {
        const utterance = new SpeechSynthesisUtterance(sentence.text)
        const voice = speechSynthesis
          .getVoices()
          .find((v) => v.voiceURI === options.voice || v.name === options.voice)
        if (voice) utterance.voice = voice
        utterance.rate = Math.min(10, Math.max(0.1, options.rate))
        const stop = () => {
          speechSynthesis.cancel()
          resolve()
        }
        utterance.onstart = () => onStarted()
        utterance.onend = () => {
          signal.removeEventListener('abort', stop)
          resolve()
        }
        utterance.onerror = (event) => {
          signal.removeEventListener('abort', stop)
          if (event.error === 'interrupted' || event.error === 'canceled') resolve()
          else reject(new Error(`the system voice failed (${event.error})`))
        }
        signal.addEventListener('abort', stop, { once: true })
        speechSynthesis.speak(utterance)
      })
    },
  }
}

/** The output of the saved speech engine (espeak-ng before the settings are known). */
export function savedSpeechOutput(
  client: Pick<IpcClient, 'invoke'>,
  playback: AudioPlayback,
  tts: PublicSettings['voice']['tts'] | undefined,
): SpeechOutput {
  if (tts?.engine === 'web-speech') return systemSpeech({ voice: tts.voice, rate: tts.rate })
  return hostSpeech(client, playback, tts?.engine ?? 'espeak-ng')
}
