import {
  type ChunkerOptions,
  chunkText,
  createTtsQueue,
  type SpokenSentence,
  type TtsQueueEvent,
  type TtsQueueResult,
} from '../../../shared/voice'
import type { SpeechAudio, SpeechEngine } from '../service/speechEngine'

export interface SpeakTextOptions {
  text: string
  engine: SpeechEngine
  voice?: string | undefined
  rate?: number | undefined
  /** Where each sentence's audio goes, strictly in order: a player, or a collector for a file. */
  play(audio: SpeechAudio, sentence: SpokenSentence, signal: AbortSignal): Promise<void>
  lookahead?: number
  chunker?: ChunkerOptions
  signal?: AbortSignal
  onEvent?(event: TtsQueueEvent): void
}

/**
 * Speaks a finished text the way the Voice panel speaks a stream: the same chunker (Markdown
 * stripped, code and tables as notes) and the same ordered queue with synthesis ahead.
 */
export async function speakText(
  options: SpeakTextOptions,
): Promise<TtsQueueResult & { sentences: SpokenSentence[] }> {
  const sentences = chunkText(options.text, options.chunker)
  const queue = createTtsQueue<SpeechAudio>({
    synthesize: (sentence, signal) =>
      options.engine.synthesize({ text: sentence.text, voice: options.voice, rate: options.rate }, signal),
    play: options.play,
    ...(options.lookahead ? { lookahead: options.lookahead } : {}),
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
  })
  const cancel = () => queue.cancel()
  options.signal?.addEventListener('abort', cancel, { once: true })
  try {
    for (const sentence of sentences) queue.push(sentence)
    queue.end()
    return { ...(await queue.finished), sentences }
  } finally {
    options.signal?.removeEventListener('abort', cancel)
  }
}
