import { AppError } from '../../../shared/errors'
import type { Settings } from '../../../shared/settings'

/** The active LLM provider, as far as the audio services need it. */
export interface ProviderEndpoint {
  kind: string
  name: string
  baseUrl: string
  apiKey?: string | undefined
}

export interface AudioEndpoint {
  baseUrl: string
  apiKey: string | undefined
  model: string
  /** Host name only, to tell the user where the audio goes. */
  host: string
  /** `settings`: Voice settings; `provider`: borrowed from the active OpenAI-compatible chat provider. */
  source: 'settings' | 'provider'
}

const DEFAULT_TTS_MODEL = 'tts-1'
const DEFAULT_STT_MODEL = 'whisper-1'
export const DEFAULT_OPENAI_VOICE = 'alloy'
export const OPENAI_VOICES = [
  'alloy',
  'ash',
  'ballad',
  'coral',
  'echo',
  'fable',
  'nova',
  'onyx',
  'sage',
  'shimmer',
  'verse',
] as const

export interface EndpointSources {
  settings: { get(): Settings; getSecret(name: string): Promise<string | undefined> }
  provider?: () => Promise<ProviderEndpoint>
}

function hostOf(url: string): string {
  try {
    return new URL(url).host
  } catch {
    return url
  }
}

const what = { tts: 'speech', stt: 'transcription' } as const

/**
 * Where OpenAI-compatible audio requests go: the Voice settings' URL, model and key; without a URL,
 * the active chat provider when it speaks the OpenAI protocol (its key too).
 */
export async function resolveAudioEndpoint(
  kind: 'tts' | 'stt',
  sources: EndpointSources,
): Promise<AudioEndpoint> {
  const section = sources.settings.get().voice[kind]
  const model = section.model ?? (kind === 'tts' ? DEFAULT_TTS_MODEL : DEFAULT_STT_MODEL)
  const ownKey = await sources.settings.getSecret(`voice.${kind}.apiKey`)
  if (section.baseUrl) {
    const baseUrl = section.baseUrl.replace(/\/+$/, '')
    return { baseUrl, apiKey: ownKey, model, host: hostOf(baseUrl), source: 'settings' }
  }
  const provider = await sources.provider?.().catch(() => undefined)
  if (provider?.kind === 'openai-compatible') {
    return {
      baseUrl: provider.baseUrl,
      apiKey: ownKey ?? provider.apiKey,
      model,
      host: hostOf(provider.baseUrl),
      source: 'provider',
    }
  }
  throw new AppError(
    'UNAVAILABLE',
    `No ${what[kind]} service is set: enter an OpenAI-compatible URL under Settings > Voice (or use an OpenAI-compatible chat provider).`,
  )
}
