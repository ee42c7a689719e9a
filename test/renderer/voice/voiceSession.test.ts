import { describe, expect, it } from 'vitest'
import type {
  MicrophonePort,
  RecordedAudio,
  SpeechOutput,
  VoiceHost,
  VoiceSessionDeps,
} from '../../../src/renderer/src/voice/voicePorts'
import { createVoiceSession, type VoiceSessionState } from '../../../src/renderer/src/voice/voiceSession'
import type { ChatMessage, VoiceAskInput, VoiceMetrics } from '../../../src/shared/ipc'
import type { SpokenSentence } from '../../../src/shared/voice'
import { deferred, tick } from '../../support/promises'

/** Every collaborator of the session as a controllable fake; a manual clock. */
function harness() {
  let clock = 0
  const log: string[] = []
  const deltaListeners = new Set<(e: { askId: string; text: string }) => void>()
  const doneListeners = new Set<(e: { askId: string; message: ChatMessage }) => void>()
  const asks: VoiceAskInput[] = []
  const interrupts: Array<{ conversationId: string; messageId: string; spokenText: string }> = []
  const metrics: VoiceMetrics[] = []
  const askReply = deferred<void>()
  let autoReply = true

  const host: VoiceHost = {
    async ask(input) {
      asks.push(input)
      if (!autoReply) await askReply.promise
      return {
        askId: `ask${asks.length}`,
        conversationId: 'c1',
        userMessageId: `u${asks.length}`,
        assistantMessageId: `a${asks.length}`,
      }
    },
    async cancel(askId) {
      log.push(`cancel ${askId}`)
    },
    async interrupt(input) {
      interrupts.push(input)
    },
    reportMetrics: (m) => metrics.push(m),
    onDelta(listener) {
      deltaListeners.add(listener)
      return () => deltaListeners.delete(listener)
    },
    onDone(listener) {
      doneListeners.add(listener)
      return () => doneListeners.delete(listener)
    },
  }

  const syntheses = new Map<number, ReturnType<typeof deferred<string>>>()
  const playbacks = new Map<number, { done: () => void; signal: AbortSignal }>()
  const output: SpeechOutput<string> = {
    engine: 'fake-tts',
    prepare(sentence, signal) {
      const d = deferred<string>()
      syntheses.set(sentence.index, d)
      signal.addEventListener('abort', () => {
        log.push(`synthesis ${sentence.index} aborted`)
        d.reject(new Error('aborted'))
      })
      return d.promise
    },
    play(_audio, sentence: SpokenSentence, signal, onStarted) {
      return new Promise<void>((resolve) => {
        log.push(`play ${sentence.index}`)
        onStarted()
        playbacks.set(sentence.index, { done: resolve, signal })
        signal.addEventListener('abort', () => {
          log.push(`stop ${sentence.index}`)
          resolve()
        })
      })
    },
  }

  let recording = false
  const recordings: RecordedAudio[] = []
  const mic: MicrophonePort = {
    startRecording() {
      recording = true
      log.push('record')
    },
    async stopRecording() {
      recording = false
      const audio = { bytes: new Uint8Array([1, 2, 3]), mimeType: 'audio/webm' }
      recordings.push(audio)
      return audio
    },
    get recording() {
      return recording
    },
    get recordingSince() {
      return recording ? 0 : undefined
    },
    close() {},
  }

  const transcripts: Array<string | Error> = []
  /** Text so far that the next transcription reports before its result. */
  const partials: string[] = []
  const deps: VoiceSessionDeps = {
    host,
    output: () => output as SpeechOutput,
    transcriber: () => ({
      kind: 'recording',
      async transcribe(_audio, onPartial) {
        for (const text of partials.splice(0)) onPartial?.(text)
        const next = transcripts.shift() ?? ''
        if (next instanceof Error) throw next
        return next
      },
    }),
    config: () => ({ thresholdDb: -45, silenceMs: 1000 }),
    takeAttachments: async () => [],
    now: () => clock,
  }
  const states: VoiceSessionState[] = []
  const session = createVoiceSession(deps, (s) => states.push(s))
  session.attachMicrophone(mic)

  /** Feeds levels every 20 ms for `ms`. */
  const speak = async (db: number, ms: number) => {
    for (let t = 0; t < ms; t += 20) {
      clock += 20
      session.level(db)
    }
    await tick()
    await tick()
  }
  const delta = (askId: string, text: string) => {
    for (const l of deltaListeners) l({ askId, text })
  }
  const done = (askId: string, status: ChatMessage['status'] = 'done') => {
    const message: ChatMessage = {
      id: 'a1',
      role: 'assistant',
      text: '',
      createdAt: '',
      status,
      attachments: [],
      steps: [],
      files: [],
    }
    for (const l of doneListeners) l({ askId, message })
  }
  return {
    session,
    log,
    asks,
    interrupts,
    metrics,
    syntheses,
    playbacks,
    transcripts,
    partials,
    recordings,
    speak,
    delta,
    done,
    advance: (ms: number) => {
      clock += ms
    },
    askReply,
    manualAskReply: () => {
      autoReply = false
    },
    get state() {
      return session.state
    },
    states,
  }
}

const SENTENCES = [
  'The north sold the most in March this year. ',
  'The south came second by a small margin. ',
  'Online sales set a new record this month. ',
]

async function handsFreeQuestion(h: ReturnType<typeof harness>, transcript = 'How did March go?') {
  h.transcripts.push(transcript)
  h.session.setMode('handsfree')
  h.session.startListening()
  await h.speak(-20, 600)
  await h.speak(-80, 1100)
  for (let i = 0; i < 5; i++) await tick()
}

describe('voice session', () => {
  it('hands-free: speech, silence, transcript, streamed answer spoken sentence by sentence, in order', async () => {
    const h = harness()
    await handsFreeQuestion(h)
    expect(h.recordings).toHaveLength(1)
    expect(h.asks[0]).toMatchObject({ text: 'How did March go?' })
    expect(h.state.transcript).toBe('How did March go?')
    h.advance(100)
    h.delta('ask1', SENTENCES[0] as string)
    h.delta('ask1', 'T')
    await tick()
    // The first sentence is synthesized before the stream has ended.
    expect(h.syntheses.has(0)).toBe(true)
    h.syntheses.get(0)?.resolve('audio0')
    await tick()
    expect(h.log).toContain('play 0')
    expect(h.state.speaking).toBe(true)
    expect(h.state.answer?.speakingIndex).toBe(0)
    h.delta('ask1', (SENTENCES[1] as string).slice(1) + (SENTENCES[2] as string))
    h.done('ask1')
    await tick()
    h.syntheses.get(2)?.resolve('audio2')
    h.syntheses.get(1)?.resolve('audio1')
    h.playbacks.get(0)?.done()
    await tick()
    await tick()
    h.playbacks.get(1)?.done()
    await tick()
    await tick()
    h.playbacks.get(2)?.done()
    await tick()
    await tick()
    expect(h.log.filter((l) => l.startsWith('play'))).toEqual(['play 0', 'play 1', 'play 2'])
    expect(h.state.timeline.map((e) => e.name)).toEqual([
      'speech-end',
      'transcript',
      'first-token',
      'first-sentence',
      'first-audio',
      'last-token',
      'playback-end',
    ])
    // Time counts from the end of speech, not from the end of the silence that confirmed it.
    expect(h.state.timeline[1]?.atMs).toBeGreaterThanOrEqual(1000)
    expect(h.state.phase).toBe('listening')
    expect(h.state.speaking).toBe(false)
    expect(h.metrics).toEqual([
      expect.objectContaining({
        askId: 'ask1',
        ttsEngine: 'fake-tts',
        sttEngine: 'openai',
        interrupted: false,
      }),
    ])
  })

  it('barge-in clears everything: playback stops at once, syntheses abort, the stream is cut, only the spoken part is kept', async () => {
    const h = harness()
    await handsFreeQuestion(h)
    h.delta('ask1', `${SENTENCES[0]}${SENTENCES[1]}O`)
    await tick()
    h.syntheses.get(0)?.resolve('audio0')
    await tick()
    expect(h.log).toContain('play 0')
    // The user talks over the answer.
    h.transcripts.push('Wait, what about April?')
    await h.speak(-20, 200)
    expect(h.log).toContain('stop 0')
    expect(h.log).toContain('synthesis 1 aborted')
    expect(h.playbacks.get(0)?.signal.aborted).toBe(true)
    expect(h.interrupts).toEqual([
      { conversationId: 'c1', messageId: 'a1', spokenText: 'The north sold the most in March this year.' },
    ])
    expect(h.state.answer).toMatchObject({ status: 'interrupted', spokenCount: 1, speakingIndex: undefined })
    expect(h.state.speaking).toBe(false)
    expect(h.state.phase).toBe('recording')
    expect(h.metrics.at(-1)).toMatchObject({ interrupted: true })
    // Late events of the cut answer change nothing and play nothing.
    h.delta('ask1', 'nline sales set a record. ')
    h.syntheses.get(1)?.resolve('late')
    await tick()
    expect(h.log.filter((l) => l.startsWith('play'))).toEqual(['play 0'])
    // The new question goes on normally.
    await h.speak(-80, 1100)
    for (let i = 0; i < 5; i++) await tick()
    expect(h.asks.map((a) => a.text)).toEqual(['How did March go?', 'Wait, what about April?'])
    expect(h.asks[1]).toMatchObject({ conversationId: 'c1' })
  })

  it('shows the text recognised so far while transcribing, then the transcript', async () => {
    const h = harness()
    h.partials.push('What were', 'What were the sales')
    await handsFreeQuestion(h, 'What were the sales in March?')
    const seen = h.states.map((s) => ({ phase: s.phase, interim: s.interim }))
    expect(seen).toContainEqual({ phase: 'transcribing', interim: 'What were' })
    expect(seen).toContainEqual({ phase: 'transcribing', interim: 'What were the sales' })
    expect(h.state.transcript).toBe('What were the sales in March?')
  })

  it('a failed transcription says why and keeps the microphone listening', async () => {
    const h = harness()
    h.transcripts.push(new Error('The transcription service at api.example.com rejected the API key.'))
    h.session.setMode('handsfree')
    h.session.startListening()
    await h.speak(-20, 600)
    await h.speak(-80, 1100)
    for (let i = 0; i < 5; i++) await tick()
    expect(h.state.problem).toBe(
      'Transcription failed: The transcription service at api.example.com rejected the API key.',
    )
    expect(h.state.phase).toBe('listening')
    expect(h.asks).toHaveLength(0)
    // Recording restarted for the next try.
    expect(h.log.filter((l) => l === 'record')).toHaveLength(2)
  })

  it('push-to-talk: press records, release sends; pressing during an answer interrupts it', async () => {
    const h = harness()
    h.transcripts.push('First question here.', 'Second question.')
    h.session.press()
    expect(h.state.phase).toBe('recording')
    h.advance(1500)
    h.session.release()
    for (let i = 0; i < 5; i++) await tick()
    expect(h.asks[0]?.text).toBe('First question here.')
    h.delta('ask1', `${SENTENCES[0]}X`)
    await tick()
    h.syntheses.get(0)?.resolve('a0')
    await tick()
    h.session.press()
    expect(h.log).toContain('stop 0')
    expect(h.interrupts).toHaveLength(1)
    h.session.release()
    for (let i = 0; i < 5; i++) await tick()
    expect(h.asks[1]?.text).toBe('Second question.')
  })

  it('keeps deltas that arrive before the ask reply (events and replies travel apart)', async () => {
    const h = harness()
    h.manualAskReply()
    const asking = h.session.askText('Quick question?')
    await tick()
    h.delta('ask1', SENTENCES[0] as string)
    h.done('ask1')
    h.askReply.resolve()
    await asking
    await tick()
    expect(h.state.answer?.text).toBe(SENTENCES[0])
    expect(h.state.answer?.sentences.map((s) => s.text)).toEqual([
      'The north sold the most in March this year.',
    ])
  })

  it('Stop after the stream ended stops the audio and marks the answer interrupted', async () => {
    const h = harness()
    await h.session.askText('Tell me.')
    h.delta('ask1', SENTENCES.join(''))
    h.done('ask1')
    await tick()
    h.syntheses.get(0)?.resolve('a0')
    await tick()
    h.session.stop()
    expect(h.log).toContain('stop 0')
    expect(h.interrupts[0]?.spokenText).toBe('The north sold the most in March this year.')
    expect(h.state.answer?.status).toBe('interrupted')
    expect(h.state.timeline.map((e) => e.name)).toContain('stopped')
  })
})
