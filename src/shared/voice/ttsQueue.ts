import type { SpokenSentence } from './sentenceChunker'

/**
 * The spoken part of an answer as it is kept in the conversation: the sentences as said, with each
 * code block or table put back as its Markdown (the note only stood in for it).
 */
export function spokenTextOf(sentences: readonly SpokenSentence[]): string {
  const parts: string[] = []
  let paragraph: string[] = []
  const endParagraph = () => {
    if (paragraph.length > 0) parts.push(paragraph.join(' '))
    paragraph = []
  }
  for (const s of sentences) {
    if (s.kind === 'text') {
      paragraph.push(s.text)
      continue
    }
    endParagraph()
    parts.push(s.kind === 'code' ? `\`\`\`${s.language ?? ''}\n${s.source ?? ''}\n\`\`\`` : (s.source ?? ''))
  }
  endParagraph()
  return parts.join('\n\n')
}

export type TtsQueueEvent =
  | { type: 'synthesis-start'; index: number }
  | { type: 'synthesized'; index: number }
  | { type: 'play-start'; index: number }
  | { type: 'play-end'; index: number }
  /** A sentence that could not be synthesized or played; the queue goes on with the next. */
  | { type: 'error'; index: number; stage: 'synthesis' | 'playback'; error: unknown }
  | { type: 'cancelled' }
  | { type: 'finished' }

export interface TtsQueueOptions<A> {
  synthesize(sentence: SpokenSentence, signal: AbortSignal): Promise<A>
  /** Plays one sentence to the end; must stop at once when the signal aborts. */
  play(audio: A, sentence: SpokenSentence, signal: AbortSignal): Promise<void>
  /** Sentences synthesized ahead of the one playing (default 2). */
  lookahead?: number
  onEvent?(event: TtsQueueEvent): void
}

export interface TtsQueueResult {
  status: 'finished' | 'cancelled'
  /** Sentences whose playback started, in order (the one cut off by a cancel included). */
  spoken: SpokenSentence[]
  /** Sentences skipped because synthesis or playback failed. */
  failed: SpokenSentence[]
}

export interface TtsQueue {
  push(sentence: SpokenSentence): void
  /** No more sentences will come: `finished` resolves after the last one has played. */
  end(): void
  /** Barge-in: stops playback now, aborts every synthesis, drops everything queued. */
  cancel(): void
  readonly cancelled: boolean
  /** What has been spoken so far (sentences whose playback started), joined. */
  spokenText(): string
  readonly finished: Promise<TtsQueueResult>
}

interface Item<A> {
  sentence: SpokenSentence
  audio: Promise<A> | undefined
}

/**
 * Synthesizes sentences ahead while earlier ones play, and plays them strictly in push order even
 * when syntheses finish out of order. Works with any audio type: bytes for the main-process
 * engines, utterances for the browser's speechSynthesis.
 */
export function createTtsQueue<A>(options: TtsQueueOptions<A>): TtsQueue {
  const lookahead = Math.max(1, options.lookahead ?? 2)
  const controller = new AbortController()
  const items: Item<A>[] = []
  const spoken: SpokenSentence[] = []
  const failed: SpokenSentence[] = []
  let next = 0
  let ended = false
  let playing = false
  let settled = false
  let resolveFinished: (result: TtsQueueResult) => void = () => {}
  const finished = new Promise<TtsQueueResult>((resolve) => {
    resolveFinished = resolve
  })
  const emit = (event: TtsQueueEvent) => options.onEvent?.(event)

  const settle = (status: TtsQueueResult['status']) => {
    if (settled) return
    settled = true
    emit({ type: status })
    resolveFinished({ status, spoken: [...spoken], failed: [...failed] })
  }

  const startSynthesis = (item: Item<A>) => {
    if (item.audio || controller.signal.aborted) return
    emit({ type: 'synthesis-start', index: item.sentence.index })
    item.audio = options.synthesize(item.sentence, controller.signal).then((audio) => {
      if (!controller.signal.aborted) emit({ type: 'synthesized', index: item.sentence.index })
      return audio
    })
    // Failures are reported when the item's turn to play comes, not as unhandled rejections.
    item.audio.catch(() => {})
  }

  const fillAhead = () => {
    for (let i = next; i < Math.min(items.length, next + lookahead); i++) {
      const item = items[i]
      if (item) startSynthesis(item)
    }
  }

  const pump = async () => {
    if (playing) return
    playing = true
    try {
      while (!controller.signal.aborted && next < items.length) {
        fillAhead()
        const item = items[next] as Item<A>
        let audio: A
        try {
          audio = await (item.audio as Promise<A>)
        } catch (error) {
          if (controller.signal.aborted) break
          failed.push(item.sentence)
          emit({ type: 'error', index: item.sentence.index, stage: 'synthesis', error })
          next++
          continue
        }
        if (controller.signal.aborted) break
        next++
        fillAhead()
        spoken.push(item.sentence)
        emit({ type: 'play-start', index: item.sentence.index })
        try {
          await options.play(audio, item.sentence, controller.signal)
          if (controller.signal.aborted) break
          emit({ type: 'play-end', index: item.sentence.index })
        } catch (error) {
          if (controller.signal.aborted) break
          spoken.pop()
          failed.push(item.sentence)
          emit({ type: 'error', index: item.sentence.index, stage: 'playback', error })
        }
      }
    } finally {
      playing = false
    }
    if (controller.signal.aborted) settle('cancelled')
    else if (ended && next >= items.length) settle('finished')
  }

  return {
    push(sentence) {
      if (ended || controller.signal.aborted) return
      items.push({ sentence, audio: undefined })
      fillAhead()
      void pump()
    },
    end() {
      if (ended) return
      ended = true
      if (!playing && next >= items.length && !controller.signal.aborted) settle('finished')
    },
    cancel() {
      if (controller.signal.aborted || settled) return
      controller.abort()
      settle('cancelled')
    },
    get cancelled() {
      return controller.signal.aborted
    },
    spokenText: () => spokenTextOf(spoken),
    finished,
  }
}
