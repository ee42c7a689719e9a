import type { ClientOptions } from '../../../src/main/llm/clients/clientOptions'
import { createLlmClient } from '../../../src/main/llm/clients/createClient'
import type { ProviderKind, ResolvedProvider, StreamEvent } from '../../../src/main/llm/types'
import type { ScriptedLlm } from '../../support/scriptedLlm'
import { scriptedProvider } from '../../support/scriptedProvider'

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
