import { z } from 'zod'
import { SttEngine, TtsEngine } from '../../settings/sections/voice'
import { route } from '../defineContract'
import { AttachmentInput, Binary, ChatMessage, ConversationId } from './chat'

/** Audio for one transcription: 25 MB is the OpenAI limit, and a long utterance is far below it. */
const MAX_AUDIO_BYTES = 25 * 1024 * 1024

export const VoiceOption = z.object({
  id: z.string(),
  name: z.string(),
  language: z.string().optional(),
})
export type VoiceOption = z.infer<typeof VoiceOption>

/** One TTS or STT engine as the Voice panel lists it: whether it works here, and if not, why and how to fix it. */
export const VoiceEngineInfo = z.object({
  id: z.string(),
  label: z.string(),
  available: z.boolean(),
  /** Why it is not available, with what to do (install hint, setting to fill in). */
  reason: z.string().optional(),
  /** `host`: run by Bureau's main process; `window`: by the browser/Electron window (Web Speech). */
  runsIn: z.enum(['host', 'window']),
  voices: z.array(VoiceOption),
  /** Where the audio goes for a remote engine (host name only), so the user knows what leaves the machine. */
  endpoint: z.string().optional(),
  /** Offline engines: ready, or what it takes (a download, a package with its install command). */
  state: z.enum(['ready', 'needs-download', 'needs-install', 'unavailable']).optional(),
  /** The engine Bureau would pick for this provider: the best ready offline one for a local model. */
  recommended: z.boolean().optional(),
})
export type VoiceEngineInfo = z.infer<typeof VoiceEngineInfo>

export const VoiceEngines = z.object({
  tts: z.array(VoiceEngineInfo),
  stt: z.array(VoiceEngineInfo),
})
export type VoiceEngines = z.infer<typeof VoiceEngines>

export const SynthesizeInput = z.object({
  text: z.string().trim().min(1).max(4_000),
  /** Default: the `voice.tts.engine` setting. */
  engine: TtsEngine.optional(),
  /** Default: the setting's voice when the engine is the configured one, else the engine's default. */
  voice: z.string().trim().min(1).max(100).optional(),
  /** 1 = normal speed. */
  rate: z.number().min(0.25).max(4).optional(),
})
export type SynthesizeInput = z.input<typeof SynthesizeInput>

export const SynthesizeResult = z.object({
  audio: Binary,
  mimeType: z.string(),
  engine: TtsEngine,
  /** Length of the audio when known (WAV). */
  durationMs: z.number().nonnegative().optional(),
  /** How long synthesis took in the host. */
  elapsedMs: z.number().nonnegative(),
})
export type SynthesizeResult = z.infer<typeof SynthesizeResult>

export const TranscribeInput = z.object({
  audio: Binary.refine((bytes) => bytes.length > 0, 'The recording is empty.').refine(
    (bytes) => bytes.length <= MAX_AUDIO_BYTES,
    'The recording is over 25 MB: speak in shorter parts.',
  ),
  /** e.g. `audio/webm;codecs=opus` from MediaRecorder, `audio/wav`. */
  mimeType: z.string().min(1).max(100),
  /** ISO-639-1 hint; default: the `voice.stt.language` setting, else detected. */
  language: z.string().min(2).max(35).optional(),
  /** Default: the `voice.stt.engine` setting. Offline engines take WAV (any rate, resampled). */
  engine: SttEngine.optional(),
  /** When given, offline engines send the text recognised so far as `voice.partial` events. */
  requestId: z.string().min(1).max(100).optional(),
})
export type TranscribeInput = z.input<typeof TranscribeInput>

export const TranscribeResult = z.object({
  text: z.string(),
  engine: SttEngine,
  elapsedMs: z.number().nonnegative(),
})
export type TranscribeResult = z.infer<typeof TranscribeResult>

export const VoiceAskInput = z.object({
  conversationId: ConversationId.optional(),
  text: z.string().trim().min(1).max(20_000),
  attachments: z.array(AttachmentInput).max(20).default([]),
})
export type VoiceAskInput = z.input<typeof VoiceAskInput>

export const VoiceAskResult = z.object({
  askId: z.string(),
  conversationId: z.string(),
  userMessageId: z.string(),
  assistantMessageId: z.string(),
})
export type VoiceAskResult = z.infer<typeof VoiceAskResult>

/** Voice-to-voice latency of one exchange, each in ms after the end of the user's speech. */
export const VoiceMetrics = z.object({
  askId: z.string().optional(),
  ttsEngine: z.string().max(40),
  sttEngine: z.string().max(40),
  transcriptMs: z.number().nonnegative().optional(),
  firstTokenMs: z.number().nonnegative().optional(),
  firstSentenceMs: z.number().nonnegative().optional(),
  firstAudioMs: z.number().nonnegative().optional(),
  /** The answer stream's end. */
  lastTokenMs: z.number().nonnegative().optional(),
  interrupted: z.boolean().optional(),
})
export type VoiceMetrics = z.infer<typeof VoiceMetrics>

/** A speech-model id (`whisper-tiny.en`, `piper-en_US-amy-medium`): the folder under `<data-dir>/speech`. */
export const SpeechModelId = z
  .string()
  .regex(/^[a-z0-9][a-zA-Z0-9._-]{0,79}$/, 'letters, digits, ".", "_" or "-"')

/** A speech-model download's progress (bytes over all of the model's files) or how it ended. */
export const SpeechModelProgress = z.object({
  id: z.string(),
  name: z.string(),
  state: z.enum(['downloading', 'done', 'failed', 'cancelled']),
  receivedBytes: z.number().nonnegative(),
  totalBytes: z.number().nonnegative().nullable(),
  /** Bytes per second. */
  speed: z.number().nonnegative(),
  etaSeconds: z.number().nonnegative().nullable(),
  /** Bytes already on disk from an earlier, stopped download that this one continues. */
  resumedBytes: z.number().nonnegative(),
  /** Why it failed or was cancelled, in words. */
  message: z.string().nullable(),
})
export type SpeechModelProgress = z.infer<typeof SpeechModelProgress>

/** One speech model of the catalogue, with whether it is installed here and its download. */
export const SpeechModelSummary = z.object({
  id: z.string(),
  kind: z.enum(['whisper', 'piper']),
  name: z.string(),
  /** ISO-639-1, or `multi`. */
  language: z.string(),
  licence: z.string(),
  /** The published size of all its files. */
  sizeBytes: z.number().int().positive(),
  /** Whether every file has a pinned sha256 in the catalogue (else the first download's is recorded). */
  pinned: z.boolean(),
  installed: z.boolean(),
  /** On disk when installed. */
  installedBytes: z.number().int().nonnegative().nullable(),
  /** Bytes of a stopped download kept to resume. */
  partialBytes: z.number().int().nonnegative(),
  download: SpeechModelProgress.nullable(),
})
export type SpeechModelSummary = z.infer<typeof SpeechModelSummary>

/** Text of an utterance recognised so far, as the offline recognizer finishes each segment. */
export const VoicePartial = z.object({ requestId: z.string(), text: z.string() })
export type VoicePartial = z.infer<typeof VoicePartial>

const AskRef = z.object({ askId: z.string(), conversationId: z.string(), messageId: z.string() })

export const voiceRoutes = {
  'voice.engines': route({
    summary: 'The TTS and STT engines, whether each works here (and why not), and their voices.',
    input: z.void(),
    output: VoiceEngines,
  }),
  'voice.synthesize': route({
    summary:
      'Speaks one sentence with a host engine (espeak-ng, OpenAI-compatible); returns the audio bytes.',
    input: SynthesizeInput,
    output: SynthesizeResult,
  }),
  'voice.transcribe': route({
    summary:
      'Turns a recording into text: offline (whisper.cpp, PocketSphinx; WAV) or the OpenAI-compatible service.',
    input: TranscribeInput,
    output: TranscribeResult,
  }),
  'voice.ask': route({
    summary:
      'Starts a spoken answer (streamChat, no tools) in a conversation; text arrives as voice.delta, the end as voice.done.',
    input: VoiceAskInput,
    output: VoiceAskResult,
  }),
  'voice.cancel': route({
    summary: 'Stops a running answer stream (the user pressed Stop).',
    input: z.object({ askId: z.string() }),
    output: z.object({ cancelled: z.boolean() }),
  }),
  'voice.interrupt': route({
    summary:
      'Barge-in: stops the answer if it still streams and marks it interrupted, keeping only what was spoken.',
    input: z.object({
      conversationId: ConversationId,
      messageId: z.string().min(1).max(100),
      spokenText: z.string().max(200_000),
    }),
    output: z.object({ interrupted: z.boolean() }),
  }),
  'voice.models': route({
    summary:
      'The speech models Bureau offers (whisper, Piper voices) with size, licence, whether installed, and their downloads.',
    input: z.void(),
    output: z.array(SpeechModelSummary),
  }),
  'voice.models.pull': route({
    summary:
      'Starts (or resumes) downloading a speech model; progress arrives as voice.modelProgress events.',
    input: z.object({ id: SpeechModelId }),
    output: SpeechModelProgress,
  }),
  'voice.models.cancel': route({
    summary: 'Stops a speech-model download; what arrived is kept to resume later.',
    input: z.object({ id: SpeechModelId }),
    output: z.object({ cancelled: z.boolean() }),
  }),
  'voice.models.remove': route({
    summary: 'Deletes an installed speech model (or the kept part of a stopped download); read back.',
    input: z.object({ id: SpeechModelId }),
    output: SpeechModelSummary,
  }),
  'voice.metrics': route({
    summary: 'Logs the latency of one voice exchange (measured in the window).',
    input: VoiceMetrics,
    output: z.object({ logged: z.boolean() }),
  }),
}

export const voiceEvents = {
  /** A chunk of a spoken answer's text as it streams. */
  'voice.delta': AskRef.extend({ text: z.string() }),
  /** The answer stream ended (done, error, cancelled or interrupted); carries the stored message. */
  'voice.done': AskRef.extend({ message: ChatMessage }),
  /** A speech-model download's progress (throttled) and its end. */
  'voice.modelProgress': SpeechModelProgress,
  /** The text of a transcription so far (offline engines, when the request named a requestId). */
  'voice.partial': VoicePartial,
}
