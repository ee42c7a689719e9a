import type { ToolRegistry } from '../../tools'

/** What a model id runs: the agent with every toolset, plain chat, or the agent with one toolset. */
export type ModelProfile =
  | { kind: 'agent'; id: string }
  | { kind: 'chat'; id: string }
  | { kind: 'toolset'; id: string; toolset: string }

export const AGENT_MODEL = 'bureau-agent'
export const CHAT_MODEL = 'bureau-chat'

export interface ModelEntry {
  profile: ModelProfile
  description: string
}

/** One model per agent profile, toolsets in registry order. A toolset named `agent` or `chat` is shadowed. */
export function listModels(registry: Pick<ToolRegistry, 'list'>): ModelEntry[] {
  const entries: ModelEntry[] = [
    {
      profile: { kind: 'agent', id: AGENT_MODEL },
      description: 'The Bureau agent with every registered toolset.',
    },
    { profile: { kind: 'chat', id: CHAT_MODEL }, description: 'Plain streaming chat, no tools.' },
  ]
  for (const toolset of registry.list()) {
    const id = `bureau-${toolset.name}`
    if (id === AGENT_MODEL || id === CHAT_MODEL) continue
    entries.push({ profile: { kind: 'toolset', id, toolset: toolset.name }, description: toolset.summary })
  }
  return entries
}

export function findModel(registry: Pick<ToolRegistry, 'list'>, id: string): ModelProfile | undefined {
  return listModels(registry).find((entry) => entry.profile.id === id)?.profile
}
