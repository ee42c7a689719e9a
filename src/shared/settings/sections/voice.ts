import { z } from 'zod'

export const TtsEngine = z.enum(['espeak-ng', 'openai', 'web-speech', 'festival', 'piper'])
export const SttEngine = z.enum(['openai', 'web-speech', 'whisper', 'pocketsphinx'])

/** An OpenAI-compatible audio endpoint; its key is the secret `voice.tts.apiKey` / `voice.stt.apiKey`. */
const AudioEndpoint = {
  baseUrl: z
    .url({ protocol: /^https?$/ })
    .nullable()
    .default(null),
  model: z.string().trim().min(1).nullable().default(null),
}

export const VoiceSettings = z.looseObject({
  tts: z
    .looseObject({
      engine: TtsEngine.default('espeak-ng'),
      /** Engine-specific voice name; `null`: the engine's default voice. */
      voice: z.string().trim().min(1).nullable().default(null),
      /** Speaking rate, 1 = normal. */
      rate: z.number().min(0.25).max(4).default(1),
      ...AudioEndpoint,
    })
    .prefault({}),
  stt: z
    .looseObject({
      engine: SttEngine.default('openai'),
      language: z.string().trim().min(2).max(35).nullable().default(null),
      /** The whisper model (a speech-model id such as `whisper-base.en`); `null`: the first installed. */
      whisperModel: z.string().trim().min(1).max(80).nullable().default(null),
      ...AudioEndpoint,
    })
    .prefault({}),
  /** Speak every chat answer, not only in the voice panel. */
  autoSpeak: z.boolean().default(false),
  vad: z
    .looseObject({
      /** Level above which sound counts as speech. */
      thresholdDb: z.number().min(-90).max(0).default(-45),
      /** Silence that ends an utterance. */
      silenceMs: z.number().int().min(200).max(10_000).default(1_500),
    })
    .prefault({}),
})
