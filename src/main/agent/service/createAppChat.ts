import { join } from 'node:path'
import type { GenerationSettings, ModelChoice } from '../../../shared/ipc'
import type { Settings } from '../../../shared/settings'
import { Anonymizer, type LlmClient } from '../../llm'
import type { MemoryStore } from '../../memory'
import type { Logger } from '../../platform'
import { type Toolset, type ToolsetSource, toolsetList } from '../../tools'
import type { Workspace } from '../../workspace'
import type { AttachmentConverter } from '../attachments/converterPort'
import { createConversationStore } from '../conversations/conversationStore'
import { type ChatEventSink, type ChatService, createChatService } from './createChatService'

export interface AppChatOptions {
  dataDir: string
  settings: {
    get(): Settings
    update?(patch: { approvals: { rules: Record<string, 'allow'> } }): Promise<unknown>
  }
  /** The client for a conversation's model choice, else the default provider's. */
  model: (choice?: ModelChoice, generation?: GenerationSettings) => Promise<LlmClient>
  events: ChatEventSink
  logger?: Logger
  /** The host's toolsets (the tools host's live registry: plugins added later are offered too). */
  toolsets: () => ToolsetSource
  /** The app's workspace (shared with the workspace routes); its owner closes it. */
  workspace: () => Workspace
  /** Toolsets offered as sub-agents; default: the setting `agent.subagents` over the host's toolsets. */
  subagents?: () => readonly Toolset[]
  /** The app's converter (createAppConverter), shared with the `convert` toolset; its owner disposes it. */
  converter: AttachmentConverter
  /** The user's memories (the prompt block of each turn, the model's proposals). */
  memory?: MemoryStore
}

/** The setting `agent.subagents`: `all`, `none`, or toolset names (unknown names are ignored). */
function subagentsFromSettings(
  choice: Settings['agent']['subagents'],
  toolsets: readonly Toolset[],
): readonly Toolset[] {
  if (choice === 'all') return toolsets
  if (choice === 'none') return []
  return toolsets.filter((toolset) => choice.includes(toolset.name))
}

/**
 * The chat service as the app runs it: conversations in `<data-dir>/conversations`, the step and
 * attachment budgets and sub-agents from the settings, the active provider, anonymization when enabled.
 */
export function createAppChat(options: AppChatOptions): ChatService {
  return createChatService({
    store: createConversationStore({
      dir: join(options.dataDir, 'conversations'),
      ...(options.logger ? { logger: options.logger } : {}),
    }),
    model: options.model,
    toolsets: options.toolsets,
    subagents:
      options.subagents ??
      (() => subagentsFromSettings(options.settings.get().agent.subagents, toolsetList(options.toolsets()))),
    maxIterations: () => options.settings.get().agent.maxIterations,
    workspace: options.workspace,
    converter: options.converter,
    attachmentBudgetChars: () => options.settings.get().attachments.budgetChars,
    anonymizer: () => {
      const { anonymization } = options.settings.get()
      return anonymization.enabled && anonymization.terms.length > 0
        ? new Anonymizer(anonymization.terms)
        : undefined
    },
    approvals: () => options.settings.get().approvals,
    allowEverywhere: async (key) => {
      await options.settings.update?.({ approvals: { rules: { [key]: 'allow' } } })
    },
    events: options.events,
    instructions: () => options.settings.get().agent.instructions,
    ...(options.memory ? { memory: options.memory } : {}),
    timeZone: () =>
      options.settings.get().calendar.timeZone || Intl.DateTimeFormat().resolvedOptions().timeZone,
    ...(options.logger ? { logger: options.logger } : {}),
  })
}
