import type { ResolvedProvider } from '../types'
import type { ResolvedClientOptions } from './clientOptions'

/**
 * The constructor options the openai and Anthropic SDKs share. Their own retries and timeout are off:
 * the runtime client applies one policy (inactivity timeout, retries, cancellation) to every protocol.
 */
export function sdkClientOptions(provider: ResolvedProvider, options: ResolvedClientOptions) {
  return {
    apiKey: provider.apiKey ?? 'no-key',
    defaultHeaders: provider.headers,
    maxRetries: 0,
    timeout: 24 * 60 * 60 * 1000,
    fetch: options.fetch,
    logLevel: 'off' as const,
  }
}
