import type { ClientOptions } from '../../../src/main/llm/clients/clientOptions'
import { createLlmClient } from '../../../src/main/llm/clients/createClient'
import type { ProviderKind, ResolvedProvider, StreamEvent } from '../../../src/main/llm/types'
import type { ScriptedLlm } from '../../support/scriptedLlm'

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

/** Client options for tests: no real waiting, recorded sleeps. */
export function testClientOptions(extra: ClientOptions = {}) {
  const sleeps: number[] = []
  const options: ClientOptions = {
    timeoutMs: 5_000,
    sleep: async (ms) => {
      sleeps.push(ms)
    },
    random: () => 1,
    ...extra,
  }
  return { options, sleeps }
}

export function scriptedClient(
  llm: ScriptedLlm,
  kind: ProviderKind,
  extra: Partial<ResolvedProvider> = {},
  options: ClientOptions = {},
) {
  return createLlmClient(scriptedProvider(llm, kind, extra), testClientOptions(options).options)
}

export async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = []
  for await (const event of events) out.push(event)
  return out
}

export const KINDS: ProviderKind[] = ['openai-compatible', 'ollama', 'anthropic']
