import { AppError } from '../../../shared/errors'
import type { SpeechAudio, SpeechEngine, SpeechRequest } from '../service/speechEngine'
import { type AudioEndpoint, DEFAULT_OPENAI_VOICE } from './audioEndpoint'
import { audioServiceError } from './audioServiceError'

export interface OpenAiAudioOptions {
  /** Resolved per call: settings and the active provider can change while the app runs. */
  endpoint: () => Promise<AudioEndpoint>
  timeoutMs?: number
  fetch?: typeof fetch
}

// The openai package is loaded on first use so the CLI and the host start fast.
async function clientFor(endpoint: AudioEndpoint, options: OpenAiAudioOptions) {
  const { default: OpenAI } = await import('openai')
  return new OpenAI({
    baseURL: endpoint.baseUrl,
    // Local servers need no key, but the client insists on one.
    apiKey: endpoint.apiKey ?? 'no-key',
    maxRetries: 1,
    timeout: options.timeoutMs ?? 60_000,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  })
}

const cancelled = () => new AppError('CANCELLED', 'Cancelled.')

const MIME: Record<string, string> = { wav: 'audio/wav', mp3: 'audio/mpeg' }

/** TTS through any OpenAI-compatible `/v1/audio/speech` (OpenAI, local servers). Asks for WAV. */
export function createOpenAiSpeechEngine(options: OpenAiAudioOptions): SpeechEngine {
  return {
    id: 'openai',
    async synthesize(request: SpeechRequest, signal?: AbortSignal): Promise<SpeechAudio> {
      const endpoint = await options.endpoint()
      try {
        const client = await clientFor(endpoint, options)
        const response = await client.audio.speech.create(
          {
            model: endpoint.model,
            voice: request.voice ?? DEFAULT_OPENAI_VOICE,
            input: request.text,
            response_format: 'wav',
            ...(request.rate !== undefined && request.rate !== 1 ? { speed: request.rate } : {}),
          },
          { signal },
        )
        const audio = new Uint8Array(await response.arrayBuffer())
        const type = response.headers.get('content-type')?.split(';')[0]?.trim()
        return { audio, mimeType: type?.startsWith('audio/') ? type : (MIME.wav as string) }
      } catch (error) {
        throw signal?.aborted ? cancelled() : audioServiceError(error, 'speech', endpoint.host)
      }
    },
  }
}

const EXTENSIONS: Array<[RegExp, string]> = [
  [/webm/, 'webm'],
  [/ogg|opus/, 'ogg'],
  [/wav|wave/, 'wav'],
  [/mpeg|mp3/, 'mp3'],
  [/mp4|m4a|aac/, 'm4a'],
  [/flac/, 'flac'],
]

/** A file name whose extension tells the server the container (whisper servers go by it). */
function recordingName(mimeType: string): string {
  const ext = EXTENSIONS.find(([pattern]) => pattern.test(mimeType.toLowerCase()))?.[1] ?? 'webm'
  return `speech.${ext}`
}

/** STT through any OpenAI-compatible `/v1/audio/transcriptions` (OpenAI, Groq, local whisper servers). */
export function createOpenAiTranscriber(options: OpenAiAudioOptions) {
  return {
    async transcribe(
      input: { audio: Uint8Array; mimeType: string; language?: string | undefined },
      signal?: AbortSignal,
    ): Promise<string> {
      const endpoint = await options.endpoint()
      try {
        const [client, { toFile }] = await Promise.all([clientFor(endpoint, options), import('openai')])
        const file = await toFile(input.audio, recordingName(input.mimeType), {
          type: input.mimeType.split(';')[0],
        })
        const result = await client.audio.transcriptions.create(
          {
            file,
            model: endpoint.model,
            response_format: 'json',
            ...(input.language ? { language: input.language } : {}),
          },
          { signal },
        )
        return result.text.trim()
      } catch (error) {
        throw signal?.aborted ? cancelled() : audioServiceError(error, 'transcription', endpoint.host)
      }
    },
  }
}
