import {
  createSentenceChunker,
  createTtsQueue,
  type SentenceChunker,
  type SpokenSentence,
  type TtsQueue,
} from '../../../shared/voice'
import type { SpeechOutput } from './voicePorts'

interface ChatEvents {
  onDelta(listener: (event: { runId: string; text: string }) => void): () => void
  onDone(listener: (event: { runId: string }) => void): () => void
}

/**
 * Auto-speak for the Chat page: each run's streamed text goes through the chunker and the TTS queue
 * as it arrives. A new run silences the previous one. `stop()` silences everything.
 */
export function createChatSpeaker(events: ChatEvents, output: () => SpeechOutput) {
  let current: { runId: string; chunker: SentenceChunker; queue: TtsQueue } | undefined

  const start = (runId: string) => {
    current?.queue.cancel()
    const speech = output()
    current = {
      runId,
      chunker: createSentenceChunker(),
      queue: createTtsQueue({
        synthesize: (sentence: SpokenSentence, signal) => speech.prepare(sentence, signal),
        play: (prepared, sentence, signal) => speech.play(prepared, sentence, signal, () => {}),
      }),
    }
    return current
  }

  const offDelta = events.onDelta(({ runId, text }) => {
    const run = current?.runId === runId ? current : start(runId)
    for (const sentence of run.chunker.push(text)) run.queue.push(sentence)
  })
  const offDone = events.onDone(({ runId }) => {
    if (current?.runId !== runId) return
    for (const sentence of current.chunker.end()) current.queue.push(sentence)
    current.queue.end()
  })

  return {
    stop() {
      current?.queue.cancel()
      current = undefined
    },
    dispose() {
      offDelta()
      offDone()
      current?.queue.cancel()
      current = undefined
    },
  }
}
