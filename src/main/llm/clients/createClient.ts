import { AppError } from '../../../shared/errors'
import type { LlmClient, PublicProvider, ResolvedProvider } from '../types'
import { createAnthropicDriver } from './anthropicDriver'
import { type ClientOptions, resolveClientOptions } from './clientOptions'
import type { ProviderDriver } from './driver'
import { checkImages } from './imageSupport'
import { createLocalDriver } from './localDriver'
import { createOllamaDriver } from './ollamaDriver'
import { createOpenAiDriver } from './openaiDriver'
import { createRuntimeClient } from './runtimeClient'

/** A provider that names a key variable expects a key: fail before the network instead of a 401. */
function missingKey(provider: ResolvedProvider): boolean {
  return provider.apiKeyEnv !== undefined && !provider.apiKey
}

/** Checks what can be refused before the network: a missing key, images the provider cannot take. */
function preflight(driver: ProviderDriver, provider: ResolvedProvider): ProviderDriver {
  return {
    ...driver,
    open: async (request, signal) => {
      checkImages(provider, request.messages)
      if (missingKey(provider)) {
        throw new AppError(
          'UNAUTHORIZED',
          `${provider.name} needs an API key. Enter it in Settings → Model provider or set ${provider.apiKeyEnv}.`,
        )
      }
      return driver.open(request, signal)
    },
  }
}

export function publicProvider(provider: ResolvedProvider): PublicProvider {
  const { apiKey: _key, ...rest } = provider
  return rest
}

/** Builds the client for a resolved provider: the protocol driver plus timeouts, retries and safe errors. */
export function createLlmClient(provider: ResolvedProvider, options: ClientOptions = {}): LlmClient {
  let resolved = resolveClientOptions(options)
  let driver: ProviderDriver
  switch (provider.kind) {
    case 'local':
      driver = createLocalDriver(provider, resolved.local)
      // No network here: loading a large model is silent for minutes, and a local failure does not heal by retrying.
      resolved = { ...resolved, timeoutMs: Math.max(resolved.timeoutMs, 15 * 60_000), maxRetries: 0 }
      break
    case 'ollama':
      driver = createOllamaDriver(provider, resolved)
      break
    case 'anthropic':
      driver = createAnthropicDriver(provider, resolved)
      break
    default:
      driver = createOpenAiDriver(provider, resolved)
  }
  return createRuntimeClient(publicProvider(provider), preflight(driver, provider), resolved, [
    provider.apiKey,
  ])
}
