import type {
  AttachmentInput,
  ChatMessage,
  VoiceAskInput,
  VoiceAskResult,
  VoiceMetrics,
} from '../../../shared/ipc'
import type { SpokenSentence } from '../../../shared/voice'

/** A finished recording of one utterance. */
export interface RecordedAudio {
  bytes: Uint8Array<ArrayBuffer>
  mimeType: string
}

/** The microphone as the session needs it: recording on and off (levels arrive through `session.level`). */
export interface MicrophonePort {
  startRecording(): void
  /** Stops and returns what was recorded (undefined when nothing was). */
  stopRecording(): Promise<RecordedAudio | undefined>
  readonly recording: boolean
  /** When the current recording started (ms, same clock as the session). */
  readonly recordingSince: number | undefined
  close(): void
}

/** Speech-to-text of a recording (the host's OpenAI-compatible service). */
export interface RecordingTranscriber {
  kind: 'recording'
  /** The engine that hears it, for the latency log. */
  engine?: string
  /** `onPartial` gets the text recognised so far, when the engine reports it (offline whisper). */
  transcribe(audio: RecordedAudio, onPartial?: (text: string) => void): Promise<string>
}

/** Live speech-to-text that listens by itself (Web Speech recognition). */
export interface LiveTranscriber {
  kind: 'live'
  start(onInterim: (text: string) => void): void
  /** Stops listening and resolves with the final text. */
  finish(): Promise<string>
  abort(): void
}

export type Transcriber = RecordingTranscriber | LiveTranscriber

/** How sentences become sound: host engines (bytes) or the window's system voices. */
export interface SpeechOutput<P = unknown> {
  readonly engine: string
  prepare(sentence: SpokenSentence, signal: AbortSignal): Promise<P>
  /** Plays to the end; stops at once when the signal aborts. `onStarted` fires when sound starts. */
  play(prepared: P, sentence: SpokenSentence, signal: AbortSignal, onStarted: () => void): Promise<void>
}

/** The host side of a spoken answer (the `voice.*` routes and events). */
export interface VoiceHost {
  ask(input: VoiceAskInput): Promise<VoiceAskResult>
  cancel(askId: string): Promise<void>
  interrupt(input: { conversationId: string; messageId: string; spokenText: string }): Promise<void>
  reportMetrics(metrics: VoiceMetrics): void
  onDelta(listener: (event: { askId: string; text: string }) => void): () => void
  onDone(listener: (event: { askId: string; message: ChatMessage }) => void): () => void
}

export interface VoiceConfig {
  thresholdDb: number
  silenceMs: number
}

export interface VoiceSessionDeps {
  host: VoiceHost
  /** Read when each answer starts: the engines and voices can change between answers. */
  output(): SpeechOutput
  transcriber(): Transcriber
  config(): VoiceConfig
  /** The files to send with the next question (then cleared by the page). */
  takeAttachments(): Promise<AttachmentInput[]>
  now(): number
}
