import { join } from 'node:path'
import type { Settings } from '../../../shared/settings'
import { Anonymizer, type LlmClient } from '../../llm'
import type { Logger } from '../../logging'
import type { ToolRegistry, Toolset } from '../../tools'
import type { Workspace } from '../../workspace'
import type { AttachmentConverter } from '../attachments/converterPort'
import { createConversationStore } from '../conversations/conversationStore'
import { type ChatEventSink, type ChatService, createChatService } from './createChatService'
import { type CurrentWorkspace, currentWorkspace } from './currentWorkspace'

export interface AppChatOptions {
  dataDir: string
  settings: { get(): Settings; workspaceDir(): { dir: string } }
  /** The active provider's client (the provider service's `client()`). */
  model: () => Promise<LlmClient>
  events: ChatEventSink
  logger?: Logger
  /** The host's toolsets (the tools host's live registry: plugins added later are offered too). */
  toolsets: () => ToolRegistry | readonly Toolset[]
  /** The app's workspace (shared with the workspace routes); default: one opened from the settings. */
  workspace?: () => Workspace
  /** Toolsets offered as sub-agents; default: the setting `agent.subagents` over the host's toolsets. */
  subagents?: () => readonly Toolset[]
  /**
   * The app's converter (createAppConverter), shared with the `convert` toolset; its owner disposes it.
   * Default: one of its own with the same cache folder and vision choice, disposed with the chat.
   */
  converter?: AttachmentConverter
}

function toolsetList(source: ToolRegistry | readonly Toolset[]): readonly Toolset[] {
  return 'list' in source ? source.list() : source
}

/** The setting `agent.subagents`: `all`, `none`, or toolset names (unknown names are ignored). */
export function subagentsFromSettings(
  choice: Settings['agent']['subagents'],
  toolsets: readonly Toolset[],
): readonly Toolset[] {
  if (choice === 'all') return toolsets
  if (choice === 'none') return []
  return toolsets.filter((toolset) => choice.includes(toolset.name))
}

/**
 * The chat's own converter when the app gives none: loaded on the first attachment, cached in the data
 * folder, pictures read by the active provider's model when the setting `attachments.vision` allows it.
 */
function ownConverter(options: AppChatOptions): AttachmentConverter & { dispose(): Promise<void> } {
  let converter: Promise<AttachmentConverter & { dispose(): Promise<void> }> | undefined
  const load = () => {
    converter ??= import('../../convert').then(({ createAppConverter }) =>
      createAppConverter({
        cacheDir: join(options.dataDir, 'cache', 'convert'),
        vision: { mode: () => options.settings.get().attachments.vision, client: options.model },
      }),
    )
    return converter
  }
  return {
    convert: async (input, convertOptions) => (await load()).convert(input, convertOptions),
    dispose: async () => {
      if (converter) await (await converter).dispose()
    },
  }
}

/**
 * The chat service as the app runs it: conversations in `<data-dir>/conversations`, the workspace
 * folder and attachment budget from the settings, the active provider, anonymization when enabled.
 */
export function createAppChat(options: AppChatOptions): ChatService {
  const ownedConverter = options.converter ? undefined : ownConverter(options)
  const converter: AttachmentConverter | undefined = options.converter ?? ownedConverter
  const owned = options.workspace
    ? undefined
    : currentWorkspace({
        root: () => options.settings.workspaceDir().dir,
        backupsToKeep: () => options.settings.get().workspace.backupsToKeep,
        onWarning: (message) => options.logger?.warn(message),
      })
  const workspace = options.workspace ?? (() => (owned as CurrentWorkspace).get())
  const chat = createChatService({
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
    workspace,
    ...(converter && { converter }),
    attachmentBudgetChars: () => options.settings.get().attachments.budgetChars,
    anonymizer: () => {
      const { anonymization } = options.settings.get()
      return anonymization.enabled && anonymization.terms.length > 0
        ? new Anonymizer(anonymization.terms)
        : undefined
    },
    events: options.events,
    ...(options.logger ? { logger: options.logger } : {}),
  })
  return {
    ...chat,
    async dispose() {
      await chat.dispose()
      // The app's shared converter is disposed by the app; only the chat's own is disposed here.
      await ownedConverter?.dispose()
      await owned?.close()
    },
  }
}
