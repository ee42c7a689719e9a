import type { ProviderKind, ResolvedProvider } from '../../src/main/llm/types'
import type { ScriptedLlm } from './scriptedLlm'

/** A provider pointed at the scripted server, speaking `kind`. */
export function scriptedProvider(
  llm: ScriptedLlm,
  kind: ProviderKind,
  extra: Partial<ResolvedProvider> = {},
): ResolvedProvider {
  return {
    id: `scripted-${kind}`,
    name: `Scripted ${kind}`,
    kind,
    baseUrl: kind === 'ollama' ? llm.url : llm.baseUrl,
    model: 'scripted-model',
    apiKeyEnv: undefined,
    contextWindow: undefined,
    maxOutputTokens: undefined,
    interactionMode: undefined,
    cacheType: kind === 'anthropic' ? 'anthropic' : 'prefix',
    supportsTools: true,
    supportsVision: false,
    headers: {},
    temperature: undefined,
    apiKey: 'sk-scripted-secret-0123456789',
    ...extra,
  }
}
