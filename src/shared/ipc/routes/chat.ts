import { z } from 'zod'
import { ApprovalBy } from '../../chat/approval'
import { route } from '../defineContract'

/** Raw bytes; Electron IPC carries them natively, HTTP as {"$bin": base64}. */
export const Binary = z.instanceof(Uint8Array)

export const AttachmentInput = z.object({
  name: z.string().min(1).max(255),
  bytes: Binary,
  mimeType: z.string().optional(),
})
export type AttachmentInput = z.infer<typeof AttachmentInput>

export const AttachmentStatus = z.enum(['pending', 'converting', 'converted', 'failed'])

/** What a message keeps of an attachment: never the bytes, always the agent path where it was saved. */
export const AttachmentMeta = z.object({
  name: z.string(),
  size: z.number().int().nonnegative(),
  mimeType: z.string().optional(),
  /** Where the file was saved in the workspace (`/inbox/<name>`), so tools can edit it. */
  agentPath: z.string().optional(),
  status: AttachmentStatus,
  error: z.string().optional(),
  /** Characters of Markdown given to the model, and whether the budget cut it. */
  chars: z.number().int().nonnegative().optional(),
  truncated: z.boolean().optional(),
  format: z.string().optional(),
  /** What the converter could not read faithfully, e.g. a picture read by OCR because the provider has no vision. */
  warnings: z.array(z.string()).optional(),
})
export type AttachmentMeta = z.infer<typeof AttachmentMeta>

export const StepStatus = z.enum(['running', 'ok', 'error', 'cancelled'])

/** "Always allow" grants a conversation keeps; past this the oldest grant gives way to the newest. */
export const MAX_APPROVED_TOOLS = 500

export { ApprovalBy }

export const AgentStep = z.object({
  id: z.string(),
  /** `toolset.method_name`, e.g. `spreadsheet.set_cell_value`. */
  method: z.string(),
  args: z.unknown(),
  status: StepStatus,
  /** The method's output (an area receipt for spreadsheet writes), when it succeeded. */
  result: z.unknown().optional(),
  error: z.string().optional(),
  startedAt: z.string(),
  durationMs: z.number().nonnegative().optional(),
  /** Set when the step ran inside a subagent (its toolset name). */
  subagent: z.string().optional(),
  /**
   * The approval of a call that changes something or reaches out (and of any denied call): allowed or
   * denied, and by whom. Reads the settings allow are not recorded.
   */
  approval: z
    .object({
      outcome: z.enum(['allowed', 'denied']),
      by: ApprovalBy,
    })
    .optional(),
})
export type AgentStep = z.infer<typeof AgentStep>

export const Usage = z.object({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  cachedInputTokens: z.number().int().nonnegative().optional(),
})
export type Usage = z.infer<typeof Usage>

export const ReturnedFile = z.object({
  agentPath: z.string(),
  name: z.string(),
  size: z.number().int().nonnegative().optional(),
})
export type ReturnedFile = z.infer<typeof ReturnedFile>

export const MessageStatus = z.enum(['streaming', 'done', 'error', 'cancelled', 'interrupted'])

/** The provider and model a run used, shown on its answer. */
export const AnsweredBy = z.object({ provider: z.string().max(200), model: z.string().max(200) })
export type AnsweredBy = z.infer<typeof AnsweredBy>

/** One conversation's sampling: absent fields leave the provider's own value. */
export const GenerationSettings = z.object({
  temperature: z.number().min(0, 'At least 0.').max(2, 'At most 2.').optional(),
  maxOutputTokens: z
    .number()
    .int('A whole number of tokens.')
    .min(16, 'At least 16 tokens.')
    .max(1_000_000, 'At most 1,000,000 tokens.')
    .optional(),
})
export type GenerationSettings = z.infer<typeof GenerationSettings>

export const ChatMessage = z.object({
  id: z.string(),
  role: z.enum(['user', 'assistant']),
  text: z.string(),
  createdAt: z.string(),
  status: MessageStatus,
  attachments: z.array(AttachmentMeta).default([]),
  steps: z.array(AgentStep).default([]),
  files: z.array(ReturnedFile).default([]),
  usage: Usage.optional(),
  error: z.string().optional(),
  /** For interrupted voice answers: the part that was actually spoken. */
  spokenText: z.string().optional(),
  /** An answer's provider and model (absent: written before models were recorded, or a user message). */
  answeredBy: AnsweredBy.optional(),
  /**
   * The message this one follows (null: the first). Versions of an answer share their user message;
   * an edited question is a sibling of the original. Missing in older files: the
   * store reads such a conversation as one line (`normalizeTree`).
   */
  parentId: z.string().nullable().optional(),
})
export type ChatMessage = z.infer<typeof ChatMessage>

/** A provider and (optionally) one of its models; without a model the provider's configured one. */
export const ModelChoice = z.object({
  providerId: z.string().min(1).max(64),
  model: z.string().trim().min(1).max(200).optional(),
})
export type ModelChoice = z.infer<typeof ModelChoice>

/** Where a search matched: the message, and a snippet with the match at [start, end). */
export const SearchHit = z.object({
  /** Absent when the title matched. */
  messageId: z.string().optional(),
  snippet: z.string(),
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
})
export type SearchHit = z.infer<typeof SearchHit>

export const ConversationSummary = z.object({
  id: z.string(),
  title: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  messageCount: z.number().int().nonnegative(),
  pinned: z.boolean().default(false),
  /** Set by a search with a query. */
  hit: SearchHit.optional(),
})
export type ConversationSummary = z.infer<typeof ConversationSummary>

export const Conversation = ConversationSummary.omit({ messageCount: true, hit: true }).extend({
  /** Every message of every branch, oldest first; the shown line is the path to `leafId`. */
  messages: z.array(ChatMessage),
  /** The last message of the branch on screen (null: empty). Missing in old files: the last message. */
  leafId: z.string().nullable().optional(),
  /** The model this conversation uses; absent: the default provider of the settings. */
  model: ModelChoice.optional(),
  /** Added to the system prompt of this conversation's runs, after the global instruction. */
  instructions: z.string().max(8000).optional(),
  /** Temperature and longest answer for this conversation's runs; absent: the provider's. */
  generation: GenerationSettings.optional(),
  /**
   * "Always allow this tool in this conversation": `toolset.method` keys whose `ask` runs without a card.
   * Only the user's answer on a card adds one; an imported conversation keeps none.
   */
  approvedTools: z.array(z.string().max(200)).max(MAX_APPROVED_TOOLS).optional(),
})
export type Conversation = z.infer<typeof Conversation>

export const ConversationId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'not a conversation id')

export const ChatSendInput = z.object({
  conversationId: ConversationId.optional(),
  text: z.string().max(200_000),
  attachments: z.array(AttachmentInput).max(20).default([]),
  /** Restrict the agent to these toolsets (default: all registered). */
  toolsets: z.array(z.string()).optional(),
  /** The model of a new conversation (an existing one keeps its own, see conversations.update). */
  model: ModelChoice.optional(),
})
export type ChatSendInput = z.input<typeof ChatSendInput>

export const ChatSendResult = z.object({
  conversationId: z.string(),
  runId: z.string(),
  userMessageId: z.string(),
  assistantMessageId: z.string(),
})
export type ChatSendResult = z.infer<typeof ChatSendResult>

const MessageRef = z.object({ conversationId: ConversationId, messageId: z.string().min(1).max(100) })

export const ConversationUpdate = z.object({
  id: ConversationId,
  pinned: z.boolean().optional(),
  /** null: back to the default provider. */
  model: ModelChoice.nullable().optional(),
  instructions: z.string().max(8000).optional(),
  /** null: the provider's own temperature and answer length again. */
  generation: GenerationSettings.nullable().optional(),
})

export const ExportFormat = z.enum(['markdown', 'json'])

const RunRef = z.object({ runId: z.string(), conversationId: z.string(), messageId: z.string() })

export const ApprovalDecision = z.enum(['once', 'conversation', 'everywhere', 'deny'])
export type ApprovalDecision = z.infer<typeof ApprovalDecision>

/** The exact call an approval card shows: toolset, method, validated arguments and risk. */
export const ApprovalCall = z.object({
  approvalId: z.string(),
  toolset: z.string(),
  method: z.string(),
  /** The API-mode name, e.g. `web_click`. */
  name: z.string(),
  risk: z.enum(['read', 'write', 'external']),
  /** The arguments, secret-looking values masked and long strings cut. */
  args: z.record(z.string(), z.unknown()),
  /** What the call touches: the page and element of a browser action, the recipients of a mail, the MCP server. */
  target: z.array(z.object({ label: z.string(), value: z.string() })).optional(),
  /** When an unanswered card is denied. */
  expiresAt: z.string(),
  /** A memory the model proposes: the card reads "Bureau wants to remember: …" with Keep, Edit and Don't. */
  memory: z
    .object({
      text: z.string(),
      scope: z.enum(['everywhere', 'workspace']),
      /** For an update: the memory's text now. */
      before: z.string().optional(),
    })
    .optional(),
})
export type ApprovalCall = z.infer<typeof ApprovalCall>

export const chatRoutes = {
  'chat.send': route({
    summary: 'Starts an agent run for a user message; progress arrives as chat.* and agent.* events.',
    input: ChatSendInput,
    output: ChatSendResult,
  }),
  'chat.cancel': route({
    summary: 'Stops a run: the model request and the running tool.',
    input: z.object({ runId: z.string() }),
    output: z.object({ cancelled: z.boolean() }),
  }),
  'chat.answer': route({
    summary: "Answers a subagent's question (sessionId may be omitted when exactly one waits).",
    input: z.object({ runId: z.string(), sessionId: z.string().optional(), input: z.string().min(1) }),
    output: z.object({ accepted: z.boolean() }),
  }),
  'chat.regenerate': route({
    summary:
      'Answers a user message again (or the question of an assistant message); the earlier answer stays a version.',
    input: MessageRef,
    output: ChatSendResult,
  }),
  'chat.edit': route({
    summary: 'Sends an edited copy of a user message (same attachments) as a new branch; the old turns stay.',
    input: MessageRef.extend({ text: z.string().max(200_000) }),
    output: ChatSendResult,
  }),
  'chat.continue': route({
    summary: 'Continues a stopped or cut-off answer in the same message.',
    input: MessageRef,
    output: ChatSendResult,
  }),
  'chat.instructionTokens': route({
    summary: 'The tokens (o200k_base) that custom instructions add to the system prompt.',
    input: z.object({
      global: z.string().max(8000).optional(),
      conversation: z.string().max(8000).optional(),
    }),
    output: z.object({ tokens: z.number().int().nonnegative() }),
  }),
  'conversations.deleteMessage': route({
    summary: 'Deletes a question with its answers (all versions); later turns move up.',
    input: MessageRef,
    output: Conversation,
  }),
  'conversations.select': route({
    summary: 'Shows another version or branch: the path through this message to its newest end.',
    input: MessageRef,
    output: Conversation,
  }),
  'conversations.update': route({
    summary: 'Pins, sets the model or the instructions of a conversation (its place in the list stays).',
    input: ConversationUpdate,
    output: Conversation,
  }),
  'conversations.export': route({
    summary:
      'A conversation as Markdown (the shown branch) or JSON (every branch, receipts, attachment names).',
    input: z.object({ id: ConversationId, format: ExportFormat }),
    output: z.object({ fileName: z.string(), mimeType: z.string(), text: z.string() }),
  }),
  'conversations.import': route({
    summary: 'Imports a conversation exported as JSON, under a new id.',
    input: z.object({ text: z.string().min(1).max(50_000_000) }),
    output: ConversationSummary,
  }),
  'chat.approve': route({
    summary: 'Answers an approval card: allow once, always in this conversation, always everywhere, or deny.',
    input: z.object({
      runId: z.string(),
      approvalId: z.string(),
      decision: ApprovalDecision,
      /** A memory card's text as the user edited it before keeping it. */
      text: z.string().trim().min(1).max(500).optional(),
    }),
    output: z.object({ accepted: z.boolean() }),
  }),
  'conversations.list': route({
    summary:
      'Conversations, pinned first then newest; `query` searches titles and message text and returns the hit.',
    input: z.object({ query: z.string().optional() }).optional(),
    output: z.array(ConversationSummary),
  }),
  'conversations.get': route({
    summary: 'One conversation with its messages.',
    input: z.object({ id: ConversationId }),
    output: Conversation,
  }),
  'conversations.rename': route({
    summary: 'Renames a conversation (its place in the list stays).',
    input: z.object({ id: ConversationId, title: z.string().trim().min(1).max(200) }),
    output: ConversationSummary,
  }),
  'conversations.delete': route({
    summary: 'Deletes a conversation.',
    input: z.object({ id: ConversationId }),
    output: z.object({ deleted: z.boolean() }),
  }),
}

export const chatEvents = {
  /** A chunk of the assistant's text as it streams. */
  'chat.delta': RunRef.extend({ text: z.string() }),
  /** An attachment's conversion status changed. */
  'chat.attachment': RunRef.extend({ index: z.number().int().nonnegative(), attachment: AttachmentMeta }),
  'agent.step': RunRef.extend({ phase: z.enum(['started', 'finished']), step: AgentStep }),
  'agent.question': RunRef.extend({ sessionId: z.string(), toolset: z.string(), question: z.string() }),
  /** A call waits for the user's approval; only this run pauses. */
  'agent.approval': RunRef.extend({ call: ApprovalCall }),
  /** The approval was answered, timed out or its run ended: the card goes away. */
  'agent.approvalEnd': RunRef.extend({ approvalId: z.string(), outcome: z.enum(['allowed', 'denied']) }),
  /** The run ended (done, error, cancelled); carries the final assistant message. */
  'agent.done': RunRef.extend({ message: ChatMessage }),
}
