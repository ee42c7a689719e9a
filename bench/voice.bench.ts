import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { tinyWhisperModel } from '../scripts/tinyWhisperModel'
import { streamChat } from '../src/main/agent/chatStream'
import { createLlmClient } from '../src/main/llm'
import type { ResolvedProvider } from '../src/main/llm/types'
import { defaultDataDir } from '../src/main/platform'
import type { SpeechAudio } from '../src/main/voice'
import { detectEspeak } from '../src/main/voice/espeak/espeakBinary'
import { createEspeakEngine } from '../src/main/voice/espeak/espeakEngine'
import { createFestivalEngine } from '../src/main/voice/festival/festivalEngine'
import { createOpenAiSpeechEngine } from '../src/main/voice/openai/openaiAudio'
import { createPiperEngine } from '../src/main/voice/piper/piperEngine'
import { createPocketsphinxEngine } from '../src/main/voice/pocketsphinx/pocketsphinxEngine'
import type { SpeechEngine } from '../src/main/voice/service/speechEngine'
import type { SpeechRecognizer } from '../src/main/voice/service/speechRecognizer'
import { findOnPath } from '../src/main/voice/system/runProgram'
import { encodeWav, wavToRecognizerPcm } from '../src/main/voice/wav/pcm'
import { parseWav } from '../src/main/voice/wav/wavFile'
import { createWhisperEngine } from '../src/main/voice/whisper/whisperEngine'
import { chunkText, createSentenceChunker, createTtsQueue } from '../src/shared/voice'
import { type ScriptedLlm, startScriptedLlm } from '../test/support/scriptedLlm'
import { scriptedProvider } from '../test/support/scriptedProvider'
import { VOICE_SENTENCES } from '../test/support/wordErrorRate'
import { median } from './support'
import type { BenchRow } from './types'

// Voice pipeline latency: a scripted model streams a 300-word answer at 30 tokens a second (one word
// per token); the chunker and the TTS queue turn it into speech as in the Voice panel. Playback is
// simulated in real time (the host has no sound device); what matters is when it starts.

const TOKENS_PER_SECOND = 30
const RUNS = 3
const TARGET_SHARE = 0.1
const REMOTE_TTS_DELAY_MS = 400

const PARAGRAPH = [
  'The quarterly report shows that sales rose by twelve percent compared with the previous quarter.',
  'Most of the growth came from the north region, where two new retail partners started in February.',
  'The south region stayed almost flat, because one large order moved from March into April.',
  'Online sales reached a new record and now account for roughly a third of all revenue.',
  'Costs remained within the budget, although shipping became more expensive in the last weeks.',
  'As a result, the operating margin improved slightly, from 8.1 to 8.6 percent.',
  'For the next quarter, the team expects steady demand and plans to hire two more people in sales.',
].join(' ')

function answerOfWords(count: number): string {
  const words: string[] = []
  while (words.length < count) words.push(...PARAGRAPH.split(' '))
  const text = words.slice(0, count).join(' ')
  return text.endsWith('.') ? text : `${text}.`
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal.addEventListener('abort', done)
  })

function provider(llm: ScriptedLlm): ResolvedProvider {
  return scriptedProvider(llm, 'openai-compatible', {
    id: 'scripted',
    name: 'Scripted',
    apiKey: 'sk-bench',
    contextWindow: 128_000,
    interactionMode: 'api',
    cacheType: 'none',
  })
}

interface Run {
  firstToken: number
  firstSentence: number
  firstAudio: number
  lastToken: number
  /** Share of the answer's words that had streamed when the first audio started. */
  streamedAtFirstAudio: number
}

/** One question: stream, chunk, synthesize ahead, play in order; times from the request. */
async function runOnce(llm: ScriptedLlm, engine: SpeechEngine, answer: string): Promise<Run> {
  llm.push({ text: answer, tokensPerSecond: TOKENS_PER_SECOND })
  const totalWords = answer.split(/\s+/).length
  const controller = new AbortController()
  const started = performance.now()
  const since = () => performance.now() - started
  let firstToken = Number.NaN
  let firstSentence = Number.NaN
  let firstAudio = Number.NaN
  let streamedWords = 0
  let wordsAtFirstAudio = Number.NaN
  const queue = createTtsQueue<SpeechAudio>({
    synthesize: (sentence, signal) => engine.synthesize({ text: sentence.text }, signal),
    async play(audio, _sentence, signal) {
      if (Number.isNaN(firstAudio)) {
        firstAudio = since()
        wordsAtFirstAudio = streamedWords
      }
      const duration = audio.mimeType === 'audio/wav' ? parseWav(audio.audio).durationMs : 1000
      await sleep(duration, signal)
    },
  })
  const chunker = createSentenceChunker()
  const model = createLlmClient(provider(llm))
  for await (const chunk of streamChat({
    model,
    prompt: 'How was the quarter?',
    signal: controller.signal,
  })) {
    if (Number.isNaN(firstToken)) firstToken = since()
    streamedWords += chunk.split(/\s+/).filter(Boolean).length
    for (const sentence of chunker.push(chunk)) {
      if (Number.isNaN(firstSentence)) firstSentence = since()
      queue.push(sentence)
    }
  }
  const lastToken = since()
  for (const sentence of chunker.end()) queue.push(sentence)
  // Wait for the first audio if it has not started yet, then stop: the rest is playback time.
  for (let i = 0; i < 600 && Number.isNaN(firstAudio); i++) await sleep(10, controller.signal)
  queue.cancel()
  return {
    firstToken,
    firstSentence,
    firstAudio,
    lastToken,
    streamedAtFirstAudio: wordsAtFirstAudio / totalWords,
  }
}

async function realTimeFactor(
  engine: SpeechEngine,
  text: string,
): Promise<{ rtf: number; firstSentenceMs: number }> {
  const sentences = chunkText(text)
  let synthMs = 0
  let audioMs = 0
  let firstSentenceMs = Number.NaN
  for (const sentence of sentences) {
    const started = performance.now()
    const { audio } = await engine.synthesize({ text: sentence.text })
    const elapsed = performance.now() - started
    if (Number.isNaN(firstSentenceMs)) firstSentenceMs = elapsed
    synthMs += elapsed
    audioMs += parseWav(audio).durationMs
  }
  return { rtf: synthMs / audioMs, firstSentenceMs }
}

function engineRows(name: string, runs: Run[], note: string): BenchRow[] {
  const m = (pick: (r: Run) => number) => median(runs.map(pick))
  const share = m((r) => r.streamedAtFirstAudio)
  return [
    {
      name: `${name}: time to first token (median of ${runs.length})`,
      value: m((r) => r.firstToken),
      unit: 'ms',
    },
    { name: `${name}: time to first sentence ready`, value: m((r) => r.firstSentence), unit: 'ms' },
    { name: `${name}: time to first audio`, value: m((r) => r.firstAudio), unit: 'ms', note },
    { name: `${name}: time to last token`, value: m((r) => r.lastToken), unit: 'ms' },
    {
      name: `${name}: share of the answer streamed at first audio`,
      value: share * 100,
      unit: '%',
      target: `< ${TARGET_SHARE * 100} %`,
      pass: share < TARGET_SHARE,
    },
  ]
}

export default async function voiceBench(): Promise<BenchRow[]> {
  const answer = answerOfWords(300)
  const llm = await startScriptedLlm({ models: ['scripted-model'] })
  const rows: BenchRow[] = []
  try {
    const espeakStatus = await detectEspeak()
    if (espeakStatus.available) {
      const espeak = createEspeakEngine()
      await espeak.synthesize({ text: 'Warm up.' })
      const runs: Run[] = []
      for (let i = 0; i < RUNS; i++) runs.push(await runOnce(llm, espeak, answer))
      rows.push(...engineRows('espeak-ng', runs, `espeak-ng ${espeakStatus.version ?? ''}, local process`))
      const { rtf, firstSentenceMs } = await realTimeFactor(espeak, answer)
      rows.push(
        {
          name: 'espeak-ng: real-time factor (synthesis time / audio time, 300 words)',
          value: rtf,
          unit: 'x',
          target: '< 1',
          pass: rtf < 1,
        },
        { name: 'espeak-ng: synthesis of the first sentence', value: firstSentenceMs, unit: 'ms' },
      )
    } else {
      rows.push({
        name: 'espeak-ng',
        value: Number.NaN,
        unit: '',
        note: `not measured: ${espeakStatus.reason}`,
      })
    }
    const openai = createOpenAiSpeechEngine({
      endpoint: async () => ({
        baseUrl: llm.baseUrl,
        apiKey: 'sk-bench',
        model: 'tts-1',
        host: '127.0.0.1',
        source: 'settings',
      }),
    })
    const runs: Run[] = []
    for (let i = 0; i < RUNS; i++) runs.push(await runOnce(llm, openai, answer))
    rows.push(
      ...engineRows(
        'OpenAI-compatible (scripted /v1/audio/speech)',
        runs,
        'the scripted server answers at once: pipeline overhead only, not a real TTS service',
      ),
    )
    // A remote service takes a few hundred milliseconds per sentence; the scripted one can be told to.
    llm.speech.setResponder(() => ({ delayMs: REMOTE_TTS_DELAY_MS }))
    const slow: Run[] = []
    for (let i = 0; i < RUNS; i++) slow.push(await runOnce(llm, openai, answer))
    llm.speech.setResponder(() => undefined)
    rows.push(
      ...engineRows(
        `OpenAI-compatible, ${REMOTE_TTS_DELAY_MS} ms per synthesis`,
        slow,
        `scripted delay standing in for a remote TTS service`,
      ),
    )
    rows.push({
      name: 'Web Speech (system voices)',
      value: Number.NaN,
      unit: '',
      note: 'not measured: runs in the window, not in Node',
    })
  } finally {
    await llm.close()
  }
  rows.push(...(await offlineRows()))
  return rows
}

/** Wall time of an async step, in ms. */
async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now()
  const value = await run()
  return { value, ms: performance.now() - started }
}

/**
 * Offline engines: each TTS engine's first-audio latency and real-time factor; each recognizer's
 * speed (audio seconds per second of transcription) and the time from an utterance's end to its
 * text; beside `espeak-ng` and `pocketsphinx_continuous` run as plain commands on the same inputs.
 */
async function offlineRows(): Promise<BenchRow[]> {
  const rows: BenchRow[] = []
  const dir = await mkdtemp(join(tmpdir(), 'bureau-bench-voice-'))
  try {
    const tts: SpeechEngine[] = [createEspeakEngine(), createFestivalEngine()]
    const piper = createPiperEngine({ voicesDir: join(defaultDataDir(process.env), 'speech') })
    if ((await piper.status()).state === 'ready') tts.push(piper)
    else
      rows.push({
        name: 'Piper',
        value: Number.NaN,
        unit: '',
        note: 'not measured: no Piper voice installed',
      })
    let utterance: Int16Array<ArrayBuffer> | undefined
    let utteranceWav: Uint8Array | undefined
    for (const engine of tts) {
      try {
        const first = await timed(() => engine.synthesize({ text: VOICE_SENTENCES[0] ?? '' }))
        let synthMs = first.ms
        let audioMs = parseWav(first.value.audio).durationMs
        for (const sentence of VOICE_SENTENCES.slice(1)) {
          const next = await timed(() => engine.synthesize({ text: sentence }))
          synthMs += next.ms
          audioMs += parseWav(next.value.audio).durationMs
        }
        if (engine.id === 'festival' || !utteranceWav) {
          utteranceWav = first.value.audio
          utterance = wavToRecognizerPcm(first.value.audio)
        }
        rows.push(
          { name: `${engine.id}: first audio (one sentence)`, value: first.ms, unit: 'ms' },
          {
            name: `${engine.id}: real-time factor (synthesis / audio)`,
            value: synthMs / audioMs,
            unit: 'x',
            target: '< 1',
            pass: synthMs < audioMs,
          },
        )
      } catch (error) {
        rows.push({
          name: engine.id,
          value: Number.NaN,
          unit: '',
          note: `not measured: ${(error as Error).message}`,
        })
      }
    }
    const espeak = await detectEspeak()
    if (espeak.command) {
      const plain = await timed(
        () =>
          new Promise<void>((resolve, reject) =>
            execFile(
              espeak.command as string,
              ['--stdout', '-v', 'en-us', VOICE_SENTENCES[0] ?? ''],
              { encoding: 'buffer' },
              (e) => (e ? reject(e) : resolve()),
            ),
          ),
      )
      rows.push({ name: 'espeak-ng as a plain command: first audio', value: plain.ms, unit: 'ms' })
    }
    if (!utterance || !utteranceWav) return rows
    const audioSeconds = utterance.length / 16_000
    const model = join(dir, 'tiny-whisper.bin')
    await writeFile(model, tinyWhisperModel())
    const recognizers: { engine: SpeechRecognizer; note?: string }[] = [
      { engine: createPocketsphinxEngine() },
      {
        engine: createWhisperEngine({ modelPath: async () => model, threads: 2 }),
        note: 'tiny random-weight model: speed of the path, not of a real model',
      },
    ]
    for (const { engine, note } of recognizers) {
      if ((await engine.status()).state !== 'ready') {
        rows.push({
          name: engine.id,
          value: Number.NaN,
          unit: '',
          note: `not measured: ${(await engine.status()).reason}`,
        })
        continue
      }
      try {
        await engine.transcribe({ pcm: utterance, language: 'en' })
        const run = await timed(() =>
          engine.transcribe({ pcm: utterance as Int16Array<ArrayBuffer>, language: 'en' }),
        )
        rows.push(
          {
            name: `${engine.id}: utterance end → text`,
            value: run.ms,
            unit: 'ms',
            ...(note ? { note } : {}),
          },
          {
            name: `${engine.id}: speed (audio s per transcription s)`,
            value: audioSeconds / (run.ms / 1000),
            unit: 'x',
            ...(note ? { note } : {}),
          },
        )
      } finally {
        await engine.dispose()
      }
    }
    const sphinx = await findOnPath('pocketsphinx_continuous')
    if (sphinx) {
      const wav = join(dir, 'utterance.wav')
      await writeFile(wav, encodeWav(utterance, 16_000))
      const plain = await timed(
        () =>
          new Promise<void>((resolve, reject) =>
            execFile(sphinx, ['-infile', wav, '-logfn', '/dev/null'], (e) => (e ? reject(e) : resolve())),
          ),
      )
      rows.push({
        name: 'pocketsphinx_continuous as a plain command: utterance → text',
        value: plain.ms,
        unit: 'ms',
      })
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
  return rows
}
