import type { GenerationSettings, ModelChoice } from '../../../shared/ipc'
import type { ApprovalSettings } from '../../../shared/settings'
import type { Anonymizer, LlmClient } from '../../llm'
import type { MemoryStore } from '../../memory'
import type { Logger } from '../../platform'
import type { Toolset } from '../../tools'
import type { Workspace } from '../../workspace'
import type { AttachmentConverter } from '../attachments/converterPort'
import type { ChatStreamOptions } from '../chatStream'

/** What every run of the app's chat (agent or plain stream, in a conversation or detached) is built from. */
export interface ChatRunDeps {
  /**
   * The model for a run, resolved per run (settings can change between runs): the conversation's
   * choice of provider and model, else the default provider.
   */
  model: (choice?: ModelChoice, generation?: GenerationSettings) => Promise<LlmClient> | LlmClient
  /** Toolsets offered as sub-agents (default none). */
  subagents?: () => readonly Toolset[]
  workspace: () => Workspace
  converter?: AttachmentConverter
  /** Attachment budget in characters (the setting; default 30,000). */
  attachmentBudgetChars?: () => number
  /** The step budget of a run (the setting `agent.maxIterations`; default 50). */
  maxIterations?: () => number
  /** A fresh anonymizer per run when anonymization is on (the setting's terms), else undefined. */
  anonymizer?: () => Anonymizer | undefined
  logger?: Logger
  /** The setting `approvals`, read per call (default: every call runs). */
  approvals?: () => ApprovalSettings
  /** "Always allow everywhere" on a card: stores the `toolset.method: allow` rule. */
  allowEverywhere?: (key: string) => Promise<void>
  /** The user's memories: each turn's prompt block, and the store the model's proposals are checked against. */
  memory?: MemoryStore
}

/** The options every run takes from the deps, with the settings read as the run starts. */
export function runEnvironment(
  deps: ChatRunDeps,
): Pick<ChatStreamOptions, 'workspace' | 'converter' | 'attachmentBudgetChars' | 'anonymizer' | 'logger'> {
  return {
    workspace: deps.workspace,
    converter: deps.converter,
    attachmentBudgetChars: deps.attachmentBudgetChars?.(),
    anonymizer: deps.anonymizer?.(),
    logger: deps.logger,
  }
}
