import { join } from 'node:path'
import { createConversationStore } from '../../agent'
import type { Logger } from '../../platform'
import type { VoiceChatPort, VoiceEventSink } from '../ask/voiceAsks'
import type { EndpointSources, ProviderEndpoint } from '../openai/audioEndpoint'
import { createVoiceService, type VoiceService } from './createVoiceService'

export interface AppVoiceOptions {
  dataDir: string
  settings: EndpointSources['settings']
  provider: () => Promise<ProviderEndpoint>
  /** The chat service: its `streamDetached` answers spoken questions. */
  chat: VoiceChatPort
  events: VoiceEventSink
  logger?: Logger
}

/** A provider that runs on this computer: the embedded model, Ollama, or any server on loopback. */
function isLocalProvider(provider: ProviderEndpoint): boolean {
  if (provider.kind === 'local' || provider.kind === 'ollama') return true
  try {
    return /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/.test(new URL(provider.baseUrl).hostname)
  } catch {
    return false
  }
}

/**
 * The voice service as the app runs it. Spoken answers are saved in `<data-dir>/conversations`, the
 * chat's folder, so they show in the Chat page; the chat service refuses a second run in a
 * conversation only for its own runs, so a voice answer and a chat run should not target the same
 * conversation at the same moment (the Voice page never does).
 */
export function createAppVoice(options: AppVoiceOptions): VoiceService {
  return createVoiceService({
    settings: options.settings,
    provider: options.provider,
    chat: options.chat,
    conversations: createConversationStore({
      dir: join(options.dataDir, 'conversations'),
      ...(options.logger ? { logger: options.logger } : {}),
    }),
    events: options.events,
    dataDir: options.dataDir,
    providerIsLocal: async () => isLocalProvider(await options.provider()),
    ...(options.logger ? { logger: options.logger } : {}),
  })
}
