import { type Anonymizer, type LlmClient, LlmSession, type Usage } from '../llm'
import type { Logger } from '../platform'
import { lazyWorkspace, type WorkspaceSource } from '../tools'
import type { AttachmentConverter } from './attachments/converterPort'
import { prepareAttachments } from './attachments/prepareAttachments'
import type { AgentAttachment, AgentEvent, HistoryTurn } from './types'

export const CHAT_SYSTEM_PROMPT =
  'You are Bureau, an office assistant. Answer the user directly and concisely in plain prose.'

export interface ChatStreamOptions {
  model: LlmClient
  prompt: string
  attachments?: readonly AgentAttachment[]
  signal?: AbortSignal
  history?: readonly HistoryTurn[]
  /** Replaces the default system prompt (e.g. "answer in short spoken sentences"). */
  system?: string
  converter?: AttachmentConverter
  workspace?: WorkspaceSource
  attachmentBudgetChars?: number
  /** Attachment status changes and notices (a file that could not be read). */
  onEvent?: (event: AgentEvent) => void
  anonymizer?: Anonymizer
  logger?: Logger
  /** Token usage the provider reported for the answer (the bridge's `bureau-chat` passes it on). */
  onUsage?: (usage: Usage) => void
}

/**
 * A plain streaming answer without tools, for the voice panel and the `bureau-chat` bridge model:
 * yields the text chunks as the model sends them. Aborting the signal stops the request; the
 * iteration then ends quietly. Attachments are converted and injected as for the agent.
 */
export async function* streamChat(options: ChatStreamOptions): AsyncGenerator<string, void, undefined> {
  const signal = options.signal ?? new AbortController().signal
  const workspace = lazyWorkspace(options.workspace)
  const prepared = await prepareAttachments({
    attachments: options.attachments ?? [],
    converter: options.converter,
    workspace,
    budgetChars: options.attachmentBudgetChars,
    signal,
    onEvent: options.onEvent,
    logger: options.logger,
  }).catch((error: unknown) => {
    if (signal.aborted) return undefined
    throw error
  })
  if (!prepared) return
  // No tools: the native protocol keeps the answer plain text (the JSON protocol would force JSON).
  const llm = new LlmSession({
    client: options.model,
    system: options.system ?? CHAT_SYSTEM_PROMPT,
    toolProtocol: 'native',
    ...(options.anonymizer ? { anonymizer: options.anonymizer } : {}),
  })
  for (const turn of options.history ?? []) {
    if (turn.role === 'user') llm.addUser(turn.content)
    else llm.conversation.addAssistant(turn.content)
  }
  llm.addUser(prepared.context ? `${options.prompt}\n\n${prepared.context}` : options.prompt)
  try {
    for await (const event of llm.stream({ signal })) {
      if (event.type === 'text' && event.text) yield event.text
      else if (event.type === 'usage') options.onUsage?.(event.usage)
    }
  } catch (error) {
    if (signal.aborted) return
    throw error
  }
}
