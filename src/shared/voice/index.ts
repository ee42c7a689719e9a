// Voice pipeline pieces shared by main (`bureau say`) and the renderer (the Voice panel): the
// streaming sentence chunker, the ordered TTS queue and level-based voice activity detection. Pure TS.
export { urlHost } from './inlineMarkdown'
export type { SpeechPiece } from './markdownSpeech'
export {
  type BlockNotes,
  type ChunkerOptions,
  chunkText,
  createSentenceChunker,
  defaultNotes,
  type SentenceChunker,
  type SpokenSentence,
} from './sentenceChunker'
export {
  createTtsQueue,
  spokenTextOf,
  type TtsQueue,
  type TtsQueueEvent,
  type TtsQueueOptions,
  type TtsQueueResult,
} from './ttsQueue'
export {
  createVoiceActivityDetector,
  DEFAULT_VAD,
  levelDb,
  type VoiceActivityDetector,
  type VoiceActivityEvent,
  type VoiceActivityOptions,
} from './voiceActivity'
export { encodeWav, toInt16 } from './wavEncode'
