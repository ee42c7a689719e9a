import type { ChatMessage } from '../../../shared/ipc'
import {
  createSentenceChunker,
  createTtsQueue,
  createVoiceActivityDetector,
  type SentenceChunker,
  type SpokenSentence,
  type TtsQueue,
  type VoiceActivityDetector,
} from '../../../shared/voice'
import type { MicrophonePort, VoiceSessionDeps } from './voicePorts'

export type VoiceMode = 'push' | 'handsfree'
export type VoicePhase = 'idle' | 'listening' | 'recording' | 'transcribing' | 'answering'

/** Moments of one exchange, in the order they happened; `atMs` counts from the end of the user's speech. */
export type TimelineName =
  | 'speech-end'
  | 'transcript'
  | 'first-token'
  | 'first-sentence'
  | 'first-audio'
  | 'last-token'
  | 'playback-end'
  | 'barge-in'
  | 'stopped'

export interface TimelineEvent {
  name: TimelineName
  atMs: number
}

export interface AnswerState {
  askId: string | undefined
  conversationId: string | undefined
  messageId: string | undefined
  /** The raw streamed text (Markdown). */
  text: string
  sentences: SpokenSentence[]
  /** The sentence being spoken now. */
  speakingIndex: number | undefined
  /** Sentences whose playback started (the spoken part). */
  spokenCount: number
  status: 'streaming' | 'done' | 'interrupted' | 'cancelled' | 'error'
  error?: string | undefined
}

export interface VoiceSessionState {
  mode: VoiceMode
  phase: VoicePhase
  /** Audio is playing. */
  speaking: boolean
  /** Hands-free: the microphone stays open and each pause ends an utterance. */
  active: boolean
  levelDb: number
  transcript: string
  interim: string
  answer: AnswerState | undefined
  conversationId: string | undefined
  timeline: TimelineEvent[]
  problem: string | undefined
}

const initialState = (mode: VoiceMode): VoiceSessionState => ({
  mode,
  phase: 'idle',
  speaking: false,
  active: false,
  levelDb: Number.NEGATIVE_INFINITY,
  transcript: '',
  interim: '',
  answer: undefined,
  conversationId: undefined,
  timeline: [],
  problem: undefined,
})

/** A recording that stays open in hands-free mode without speech is restarted, so it cannot grow without bound. */
const MAX_IDLE_RECORDING_MS = 20_000

function messageOf(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'Something went wrong.'
}

interface Exchange {
  t0: number
  chunker: SentenceChunker
  queue: TtsQueue
  streamEnded: boolean
  /** Every queued sentence has been played (or the queue was cancelled). */
  queueDone: boolean
  unsubscribe: Array<() => void>
  reported: boolean
  interrupted: boolean
  firstAudio: boolean
}

/**
 * The Voice panel's pipeline: microphone levels -> voice activity -> recording -> transcription ->
 * spoken answer stream -> sentence chunker -> ordered TTS queue -> playback, with barge-in. It has no
 * React and no DOM: the page feeds it levels and renders its state.
 */
export function createVoiceSession(deps: VoiceSessionDeps, onState: (state: VoiceSessionState) => void) {
  let state = initialState('push')
  let mic: MicrophonePort | undefined
  let vad: VoiceActivityDetector = createVoiceActivityDetector(deps.config())
  let exchange: Exchange | undefined
  let liveListening = false

  const set = (patch: Partial<VoiceSessionState>) => {
    state = { ...state, ...patch }
    onState(state)
  }
  const setAnswer = (patch: Partial<AnswerState>) => {
    if (state.answer) set({ answer: { ...state.answer, ...patch } })
  }
  const mark = (name: TimelineName) => {
    if (!exchange) return
    set({ timeline: [...state.timeline, { name, atMs: Math.max(0, deps.now() - exchange.t0) }] })
  }
  const markOnce = (name: TimelineName) => {
    if (!state.timeline.some((e) => e.name === name)) mark(name)
  }
  const answerBusy = () => state.speaking || state.answer?.status === 'streaming'
  const restPhase = (): VoicePhase => (state.active ? 'listening' : 'idle')

  function reportMetrics(ex: Exchange) {
    if (ex.reported) return
    ex.reported = true
    const at = (name: TimelineName) => state.timeline.find((e) => e.name === name)?.atMs
    const output = deps.output()
    deps.host.reportMetrics({
      ...(state.answer?.askId ? { askId: state.answer.askId } : {}),
      ttsEngine: output.engine,
      sttEngine: ((t) => (t.kind === 'live' ? 'web-speech' : (t.engine ?? 'openai')))(deps.transcriber()),
      ...optional('transcriptMs', at('transcript')),
      ...optional('firstTokenMs', at('first-token')),
      ...optional('firstSentenceMs', at('first-sentence')),
      ...optional('firstAudioMs', at('first-audio')),
      ...optional('lastTokenMs', at('last-token')),
      interrupted: ex.interrupted,
    })
  }

  function finishIfDone(ex: Exchange) {
    if (exchange !== ex || !ex.streamEnded || !ex.queueDone) return
    reportMetrics(ex)
    for (const off of ex.unsubscribe) off()
    exchange = undefined
    set({ phase: restPhase() })
  }

  function startQueue(t0: number): Exchange {
    const output = deps.output()
    const ex: Exchange = {
      t0,
      chunker: createSentenceChunker(),
      queue: undefined as unknown as TtsQueue,
      streamEnded: false,
      queueDone: false,
      unsubscribe: [],
      reported: false,
      interrupted: false,
      firstAudio: false,
    }
    ex.queue = createTtsQueue({
      synthesize: (sentence, signal) => output.prepare(sentence, signal),
      play: (prepared, sentence, signal) =>
        output.play(prepared, sentence, signal, () => {
          if (exchange === ex && !ex.firstAudio) {
            ex.firstAudio = true
            mark('first-audio')
          }
        }),
      onEvent(event) {
        if (exchange !== ex) return
        if (event.type === 'play-start') {
          set({ speaking: true })
          setAnswer({ speakingIndex: event.index, spokenCount: (state.answer?.spokenCount ?? 0) + 1 })
        } else if (event.type === 'error' && !state.problem) {
          set({ problem: `Speech failed: ${messageOf(event.error)}` })
        }
      },
    })
    void ex.queue.finished.then((result) => {
      ex.queueDone = true
      if (exchange !== ex) return
      set({ speaking: false })
      setAnswer({ speakingIndex: undefined })
      if (result.status === 'finished') markOnce('playback-end')
      finishIfDone(ex)
    })
    return ex
  }

  function pushSentences(ex: Exchange, sentences: SpokenSentence[]) {
    if (sentences.length === 0 || exchange !== ex) return
    markOnce('first-sentence')
    setAnswer({ sentences: [...(state.answer?.sentences ?? []), ...sentences] })
    for (const sentence of sentences) ex.queue.push(sentence)
  }

  function endStream(ex: Exchange, message: ChatMessage | undefined) {
    if (ex.streamEnded) return
    ex.streamEnded = true
    if (exchange !== ex) return
    markOnce('last-token')
    pushSentences(ex, ex.chunker.end())
    ex.queue.end()
    if (message && state.answer?.status === 'streaming') {
      const status = message.status === 'streaming' ? 'done' : message.status
      setAnswer({ status, ...(message.error ? { error: message.error } : {}) })
      if (message.error) set({ problem: message.error })
    }
    finishIfDone(ex)
  }

  /** Sends a question and speaks the answer as it streams. `t0` is the end of the user's speech. */
  async function ask(text: string, t0: number) {
    const ex = startQueue(t0)
    exchange = ex
    set({
      phase: 'answering',
      transcript: text,
      interim: '',
      answer: {
        askId: undefined,
        conversationId: state.conversationId,
        messageId: undefined,
        text: '',
        sentences: [],
        speakingIndex: undefined,
        spokenCount: 0,
        status: 'streaming',
      },
    })
    let askId: string | undefined
    // Events travel apart from the reply (SSE vs. the request): the first ones may come before the id.
    const early: Array<() => void> = []
    const onDelta = (event: { askId: string; text: string }) => {
      if (exchange !== ex || ex.streamEnded) return
      if (askId === undefined) return void early.push(() => onDelta(event))
      if (event.askId !== askId) return
      markOnce('first-token')
      setAnswer({ text: (state.answer?.text ?? '') + event.text })
      pushSentences(ex, ex.chunker.push(event.text))
    }
    const onDone = (event: { askId: string; message: ChatMessage }) => {
      if (askId === undefined) return void early.push(() => onDone(event))
      if (event.askId === askId) endStream(ex, event.message)
    }
    ex.unsubscribe.push(deps.host.onDelta(onDelta), deps.host.onDone(onDone))
    try {
      const attachments = await deps.takeAttachments()
      const refs = await deps.host.ask({
        ...(state.conversationId ? { conversationId: state.conversationId } : {}),
        text,
        attachments,
      })
      askId = refs.askId
      if (exchange !== ex) {
        // Barged in before the host answered: stop what it just started.
        await deps.host.interrupt({
          conversationId: refs.conversationId,
          messageId: refs.assistantMessageId,
          spokenText: '',
        })
        return
      }
      set({ conversationId: refs.conversationId })
      setAnswer({
        askId: refs.askId,
        conversationId: refs.conversationId,
        messageId: refs.assistantMessageId,
      })
      for (const replay of early.splice(0)) replay()
    } catch (error) {
      if (exchange !== ex) return
      setAnswer({ status: 'error', error: messageOf(error) })
      set({ problem: messageOf(error) })
      ex.queue.cancel()
      endStream(ex, undefined)
    }
  }

  /** The user spoke (or pressed Stop) while an answer streamed or played: silence now, keep what was said. */
  function cutAnswer(reason: 'barge-in' | 'stopped') {
    const ex = exchange
    const answer = state.answer
    if (!ex || !answer) return
    ex.interrupted = true
    mark(reason)
    const spoken = ex.queue.spokenText()
    ex.queue.cancel()
    const wasStreaming = answer.status === 'streaming'
    setAnswer({ status: 'interrupted', speakingIndex: undefined })
    set({ speaking: false })
    if (answer.conversationId && answer.messageId) {
      void deps.host
        .interrupt({ conversationId: answer.conversationId, messageId: answer.messageId, spokenText: spoken })
        .catch((error: unknown) => set({ problem: messageOf(error) }))
    } else if (wasStreaming && answer.askId) void deps.host.cancel(answer.askId)
    reportMetrics(ex)
    for (const off of ex.unsubscribe) off()
    exchange = undefined
  }

  async function endUtterance(endedAt: number) {
    if (!mic && deps.transcriber().kind === 'recording') return
    const transcriber = deps.transcriber()
    if (exchange) cutAnswer('barge-in')
    set({
      phase: 'transcribing',
      interim: '',
      problem: undefined,
      timeline: [{ name: 'speech-end', atMs: 0 }],
    })
    const t0 = endedAt
    let text: string
    try {
      if (transcriber.kind === 'live') {
        liveListening = false
        text = await transcriber.finish()
      } else {
        const audio = await mic?.stopRecording()
        if (state.active) mic?.startRecording()
        if (!audio || audio.bytes.length === 0) {
          set({ phase: restPhase(), problem: 'Nothing was recorded. Check the microphone.' })
          return
        }
        text = await transcriber.transcribe(audio, (partial) => {
          if (state.phase === 'transcribing') set({ interim: partial })
        })
      }
    } catch (error) {
      // The microphone stays usable: the user can simply speak again.
      set({ phase: restPhase(), problem: `Transcription failed: ${messageOf(error)}` })
      return
    }
    set({ timeline: [...state.timeline, { name: 'transcript', atMs: Math.max(0, deps.now() - t0) }] })
    if (!text.trim()) {
      set({
        phase: restPhase(),
        transcript: '',
        problem: 'No words were recognised. Try again, a little louder.',
      })
      return
    }
    await ask(text.trim(), t0)
  }

  function speechStarted() {
    if (answerBusy()) cutAnswer('barge-in')
    const transcriber = deps.transcriber()
    if (transcriber.kind === 'live' && !liveListening) {
      liveListening = true
      transcriber.start((interim) => set({ interim }))
    }
    set({ phase: 'recording', interim: '' })
  }

  return {
    get state() {
      return state
    },

    /** The page opened the microphone (after the user's gesture). */
    attachMicrophone(port: MicrophonePort) {
      mic = port
    },

    setMode(mode: VoiceMode) {
      if (state.active) this.stopListening()
      set({ mode })
    },

    /** One level reading from the microphone. */
    level(levelDb: number) {
      const now = deps.now()
      set({ levelDb })
      const event = vad.update(levelDb, now)
      if (state.mode === 'handsfree' && state.active) {
        if (event === 'speech-start') speechStarted()
        else if (event === 'speech-end' && state.phase === 'recording')
          void endUtterance(vad.lastSpeechAt ?? now)
        else if (
          !vad.speaking &&
          state.phase === 'listening' &&
          mic?.recording &&
          mic.recordingSince !== undefined &&
          now - mic.recordingSince > MAX_IDLE_RECORDING_MS
        ) {
          void mic.stopRecording().then(() => {
            if (state.active && !mic?.recording) mic?.startRecording()
          })
        }
      } else if (
        event === 'speech-start' &&
        state.mode === 'push' &&
        state.speaking &&
        state.phase !== 'recording'
      ) {
        // Push-to-talk users interrupt by pressing, but speaking over the answer works too.
        cutAnswer('barge-in')
      }
    },

    /** Hands-free on: listen continuously; every pause ends a question. */
    startListening() {
      vad = createVoiceActivityDetector(deps.config())
      set({
        active: true,
        phase: state.phase === 'answering' ? 'answering' : 'listening',
        problem: undefined,
      })
      if (deps.transcriber().kind === 'recording' && !mic?.recording) mic?.startRecording()
    },

    stopListening() {
      set({ active: false })
      if (mic?.recording) void mic.stopRecording()
      const transcriber = deps.transcriber()
      if (transcriber.kind === 'live' && liveListening) {
        liveListening = false
        transcriber.abort()
      }
      if (state.phase === 'listening' || state.phase === 'recording') set({ phase: 'idle' })
    },

    /** Push-to-talk pressed: interrupts any answer and records. */
    press() {
      if (answerBusy()) cutAnswer('barge-in')
      vad = createVoiceActivityDetector(deps.config())
      const transcriber = deps.transcriber()
      if (transcriber.kind === 'live') {
        liveListening = true
        transcriber.start((interim) => set({ interim }))
      } else mic?.startRecording()
      set({ phase: 'recording', interim: '', problem: undefined })
    },

    /** Push-to-talk released: the question is complete. */
    release() {
      if (state.phase !== 'recording') return
      void endUtterance(deps.now())
    },

    /** A typed question, answered aloud like a spoken one. */
    async askText(text: string) {
      if (answerBusy()) cutAnswer('stopped')
      set({ problem: undefined, timeline: [] })
      exchange = undefined
      await ask(text, deps.now())
    },

    /** The Stop button: silence at once, stop the stream, keep what was spoken. */
    stop() {
      if (answerBusy()) cutAnswer('stopped')
      set({ phase: restPhase() })
    },

    /** Starts a new conversation for the next question. */
    newConversation() {
      if (answerBusy()) cutAnswer('stopped')
      set({ conversationId: undefined, answer: undefined, transcript: '', timeline: [] })
    },

    dismissProblem() {
      set({ problem: undefined })
    },

    /** A problem found outside the pipeline (the microphone could not be opened). */
    reportProblem(message: string) {
      set({ problem: message, phase: state.phase === 'recording' ? restPhase() : state.phase })
    },

    dispose() {
      if (answerBusy()) cutAnswer('stopped')
      this.stopListening()
      mic?.close()
      mic = undefined
    },
  }
}

export type VoiceSession = ReturnType<typeof createVoiceSession>

function optional<K extends string>(key: K, value: number | undefined): Partial<Record<K, number>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, number>)
}
