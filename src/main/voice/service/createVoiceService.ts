import { AppError } from '../../../shared/errors'
import type {
  SynthesizeResult,
  TranscribeResult,
  VoiceAskInput,
  VoiceAskResult,
  VoiceEngineInfo,
  VoiceEngines,
  VoiceMetrics,
} from '../../../shared/ipc'
import type { Settings } from '../../../shared/settings'
import type { Logger } from '../../platform'
import {
  createVoiceAsks,
  type VoiceChatPort,
  type VoiceConversations,
  type VoiceEventSink,
} from '../ask/voiceAsks'
import { createEspeakEngine, type EspeakEngineOptions } from '../espeak/espeakEngine'
import { createFestivalEngine } from '../festival/festivalEngine'
import { createSpeechDownloads, type SpeechDownloads } from '../models/speechDownloads'
import { createSpeechModelStore, type SpeechModelStore } from '../models/speechModels'
import {
  type EndpointSources,
  OPENAI_VOICES,
  type ProviderEndpoint,
  resolveAudioEndpoint,
} from '../openai/audioEndpoint'
import { createOpenAiSpeechEngine, createOpenAiTranscriber } from '../openai/openaiAudio'
import { createPiperEngine } from '../piper/piperEngine'
import { createPocketsphinxEngine } from '../pocketsphinx/pocketsphinxEngine'
import { wavToRecognizerPcm } from '../wav/pcm'
import { parseWav } from '../wav/wavFile'
import { createWhisperEngine } from '../whisper/whisperEngine'
import { recommendEngines } from './recommendEngines'
import type { SpeechEngine } from './speechEngine'
import type { EngineState, SpeechRecognizer } from './speechRecognizer'

export interface VoiceServiceOptions {
  settings: EndpointSources['settings']
  /** The active chat provider: its URL and key serve the audio endpoints when Voice settings name none. */
  provider?: () => Promise<ProviderEndpoint>
  /** Needed for `voice.ask`; without it asking answers UNAVAILABLE (e.g. `bureau say`). */
  chat?: VoiceChatPort
  conversations?: VoiceConversations
  events?: VoiceEventSink
  logger?: Logger
  espeak?: EspeakEngineOptions
  fetch?: typeof fetch
  /** Where speech models live (`<data-dir>/speech`); without it whisper and Piper need a download. */
  dataDir?: string
  /** A whisper model file to use instead of the installed ones (`bureau transcribe --model-file`). */
  whisperModelFile?: string
  /** Whether the active chat provider runs on this computer: offline engines are then recommended. */
  providerIsLocal?: () => Promise<boolean>
}

type HostTtsEngine = 'espeak-ng' | 'openai' | 'festival' | 'piper'
type SttId = Settings['voice']['stt']['engine']

export interface SynthesizeOptions {
  text: string
  engine?: Settings['voice']['tts']['engine'] | undefined
  voice?: string | undefined
  rate?: number | undefined
}

export interface VoiceService {
  engines(): Promise<VoiceEngines>
  synthesize(input: SynthesizeOptions, signal?: AbortSignal): Promise<SynthesizeResult>
  /** The host engine a `say`/synthesis would use, with the voice and rate in effect. */
  speechEngine(input: Omit<SynthesizeOptions, 'text'>): {
    engine: SpeechEngine
    voice: string | undefined
    rate: number
  }
  transcribe(
    input: {
      audio: Uint8Array
      mimeType: string
      language?: string | undefined
      engine?: SttId | undefined
      onPartial?: ((text: string) => void) | undefined
      /** Sends the text so far as `voice.partial` events under this id. */
      requestId?: string | undefined
    },
    signal?: AbortSignal,
  ): Promise<TranscribeResult>
  /** The installed speech models (downloads, removal). */
  speechModels: SpeechModelStore | undefined
  /** Background downloads of speech models with progress events (when the service has events). */
  modelDownloads: SpeechDownloads | undefined
  ask(input: VoiceAskInput): Promise<VoiceAskResult>
  cancel(askId: string): boolean
  interrupt(input: { conversationId: string; messageId: string; spokenText: string }): Promise<boolean>
  reportMetrics(metrics: VoiceMetrics): void
  dispose(): Promise<void>
}

const WEB_SPEECH_IN_HOST =
  'System voices (Web Speech) play in the app window, not in the host: pick espeak-ng or an OpenAI-compatible voice here.'

/** TTS and STT engines, spoken answers, and latency logging: what the `voice.*` routes and `bureau say` use. */
export function createVoiceService(options: VoiceServiceOptions): VoiceService {
  const sources: EndpointSources = {
    settings: options.settings,
    ...(options.provider ? { provider: options.provider } : {}),
  }
  const espeak = createEspeakEngine(options.espeak)
  const openAiOptions = (kind: 'tts' | 'stt') => ({
    endpoint: () => resolveAudioEndpoint(kind, sources),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  })
  const openaiSpeech = createOpenAiSpeechEngine(openAiOptions('tts'))
  const transcriber = createOpenAiTranscriber(openAiOptions('stt'))
  const speechModels = options.dataDir ? createSpeechModelStore({ dataDir: options.dataDir }) : undefined
  const events = options.events
  const modelDownloads =
    speechModels && events
      ? createSpeechDownloads({
          store: speechModels,
          emit: (progress) => events.emit('voice.modelProgress', progress),
        })
      : undefined
  const festival = createFestivalEngine()
  const piper = createPiperEngine({ voicesDir: speechModels?.dir ?? '' })
  const whisper = createWhisperEngine({
    modelPath: async () => {
      if (options.whisperModelFile) return options.whisperModelFile
      if (!speechModels) return undefined
      const chosen = options.settings.get().voice.stt.whisperModel
      if (chosen) return speechModels.whisperPath(chosen)
      const first = (await speechModels.list()).find((m) => m.kind === 'whisper')
      return first ? speechModels.whisperPath(first.id) : undefined
    },
  })
  const pocketsphinx = createPocketsphinxEngine()
  const recognizers: Record<'whisper' | 'pocketsphinx', SpeechRecognizer> = { whisper, pocketsphinx }
  const engines: Record<HostTtsEngine, SpeechEngine> = {
    'espeak-ng': espeak,
    openai: openaiSpeech,
    festival,
    piper,
  }
  const asks =
    options.chat && options.conversations && options.events
      ? createVoiceAsks({
          chat: options.chat,
          conversations: options.conversations,
          events: options.events,
          ...(options.logger ? { logger: options.logger } : {}),
        })
      : undefined
  const needAsks = () => {
    if (!asks)
      throw new AppError('UNAVAILABLE', 'Spoken answers need the chat service, which this host does not run.')
    return asks
  }

  const speechEngine: VoiceService['speechEngine'] = (input) => {
    const tts = options.settings.get().voice.tts
    const id = input.engine ?? tts.engine
    if (id === 'web-speech') throw new AppError('UNSUPPORTED', WEB_SPEECH_IN_HOST)
    // The saved voice belongs to the saved engine; another engine starts from its own default.
    const voice = input.voice ?? (id === tts.engine ? (tts.voice ?? undefined) : undefined)
    return { engine: engines[id], voice, rate: input.rate ?? tts.rate }
  }

  async function openAiInfo(
    kind: 'tts' | 'stt',
  ): Promise<Pick<VoiceEngineInfo, 'available' | 'reason' | 'endpoint'>> {
    try {
      const endpoint = await resolveAudioEndpoint(kind, sources)
      return { available: true, endpoint: endpoint.host }
    } catch (error) {
      return { available: false, reason: error instanceof AppError ? error.message : String(error) }
    }
  }

  return {
    async engines() {
      const info = (state: EngineState) => ({
        available: state.state === 'ready',
        state: state.state,
        ...(state.reason ? { reason: state.reason } : {}),
      })
      const [status, espeakVoices, tts, stt, festivalState, festivalVoices, piperState, piperVoices] =
        await Promise.all([
          espeak.status(),
          espeak.voices(),
          openAiInfo('tts'),
          openAiInfo('stt'),
          festival.status(),
          festival.voices(),
          piper.status(),
          piper.voices(),
        ])
      const [whisperState, sphinxState] = await Promise.all([whisper.status(), pocketsphinx.status()])
      const ttsList: VoiceEngineInfo[] = [
        {
          id: 'piper',
          label: 'Piper neural voices (offline)',
          runsIn: 'host',
          voices: piperVoices,
          ...info(piperState),
        },
        {
          id: 'festival',
          label: 'Festival (offline, system)',
          runsIn: 'host',
          voices: festivalVoices,
          ...info(festivalState),
        },
        {
          id: 'espeak-ng',
          label: 'espeak-ng (offline)',
          available: status.available,
          state: status.available ? 'ready' : 'needs-install',
          ...(status.reason ? { reason: status.reason } : {}),
          runsIn: 'host',
          voices: espeakVoices,
        },
        {
          id: 'openai',
          label: 'OpenAI-compatible speech',
          runsIn: 'host',
          voices: OPENAI_VOICES.map((v) => ({ id: v, name: v })),
          ...tts,
        },
        {
          id: 'web-speech',
          label: 'System voices (Web Speech)',
          available: true,
          reason: 'Decided by the window: it checks speechSynthesis and its voices.',
          runsIn: 'window',
          voices: [],
        },
      ]
      const sttList: VoiceEngineInfo[] = [
        { id: 'whisper', label: 'whisper.cpp (offline)', runsIn: 'host', voices: [], ...info(whisperState) },
        {
          id: 'pocketsphinx',
          label: 'PocketSphinx (offline, system, English)',
          runsIn: 'host',
          voices: [],
          ...info(sphinxState),
        },
        { id: 'openai', label: 'OpenAI-compatible transcription', runsIn: 'host', voices: [], ...stt },
        {
          id: 'web-speech',
          label: 'Web Speech recognition',
          available: true,
          reason: 'Decided by the window: it checks for SpeechRecognition.',
          runsIn: 'window',
          voices: [],
        },
      ]
      const local = (await options.providerIsLocal?.().catch(() => false)) ?? false
      return recommendEngines({ tts: ttsList, stt: sttList }, local)
    },

    async synthesize(input, signal) {
      const { engine, voice, rate } = speechEngine(input)
      const started = performance.now()
      const { audio, mimeType } = await engine.synthesize({ text: input.text, voice, rate }, signal)
      let durationMs: number | undefined
      try {
        durationMs = mimeType === 'audio/wav' ? parseWav(audio).durationMs : undefined
      } catch {
        durationMs = undefined
      }
      return {
        audio,
        mimeType,
        engine: engine.id,
        elapsedMs: performance.now() - started,
        ...(durationMs !== undefined ? { durationMs } : {}),
      }
    },
    speechEngine,

    async transcribe(input, signal) {
      const stt = options.settings.get().voice.stt
      const started = performance.now()
      const engineId = input.engine ?? stt.engine
      if (engineId === 'whisper' || engineId === 'pocketsphinx') {
        if (!/wav/i.test(input.mimeType))
          throw new AppError(
            'UNSUPPORTED',
            `${engineId} takes WAV audio (any sample rate), not ${input.mimeType.slice(0, 40)}.`,
          )
        const requestId = input.requestId
        const onPartial =
          requestId && events
            ? (text: string) => {
                input.onPartial?.(text)
                events.emit('voice.partial', { requestId, text })
              }
            : input.onPartial
        const heard = await recognizers[engineId].transcribe(
          {
            pcm: wavToRecognizerPcm(input.audio),
            language: input.language ?? stt.language ?? undefined,
            onPartial,
          },
          signal,
        )
        const elapsedMs = performance.now() - started
        options.logger?.info('transcribed', {
          engine: engineId,
          bytes: input.audio.length,
          chars: heard.text.length,
          elapsedMs: Math.round(elapsedMs),
        })
        return { text: heard.text, engine: engineId, elapsedMs }
      }
      if (engineId === 'web-speech')
        throw new AppError('UNSUPPORTED', 'Web Speech recognition runs in the app window, not in the host.')
      const text = await transcriber.transcribe(
        {
          audio: input.audio,
          mimeType: input.mimeType,
          language: input.language ?? stt.language ?? undefined,
        },
        signal,
      )
      const elapsedMs = performance.now() - started
      options.logger?.info('transcribed', {
        bytes: input.audio.length,
        chars: text.length,
        elapsedMs: Math.round(elapsedMs),
      })
      return { text, engine: 'openai', elapsedMs }
    },

    ask: async (input) => needAsks().ask(input),
    cancel: (askId) => asks?.cancel(askId) ?? false,
    interrupt: async (input) => needAsks().interrupt(input),
    reportMetrics(metrics) {
      const round = (v: number | undefined) => (v === undefined ? null : Math.round(v))
      options.logger?.info('voice latency', {
        askId: metrics.askId ?? null,
        tts: metrics.ttsEngine,
        stt: metrics.sttEngine,
        transcriptMs: round(metrics.transcriptMs),
        firstTokenMs: round(metrics.firstTokenMs),
        firstSentenceMs: round(metrics.firstSentenceMs),
        firstAudioMs: round(metrics.firstAudioMs),
        lastTokenMs: round(metrics.lastTokenMs),
        interrupted: metrics.interrupted ?? false,
      })
    },
    speechModels,
    modelDownloads,
    dispose: async () => {
      modelDownloads?.dispose()
      await asks?.dispose()
      await whisper.dispose()
      piper.dispose()
    },
  }
}
