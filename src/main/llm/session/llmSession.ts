import { anonymizeMessages } from '../anonymize/anonymizeMessages'
import type { Anonymizer, StreamRestorer } from '../anonymize/anonymizer'
import { ANONYMIZATION_INSTRUCTION } from '../anonymize/placeholderToken'
import { attachDynamicContext, layoutMessages } from '../caching/promptLayout'
import { Conversation } from '../history/conversation'
import { estimateTextTokens, estimateToolsTokens } from '../history/estimateTokens'
import {
  jsonProtocolInstructions,
  parseJsonProtocolReply,
  toJsonProtocolMessages,
} from '../toolProtocol/jsonProtocol'
import type {
  ChatMessage,
  ChatRequest,
  ChatResult,
  FinishReason,
  LlmClient,
  ToolCall,
  ToolSpec,
  Usage,
} from '../types'

export type ToolProtocol = 'native' | 'json'

export interface LlmSessionOptions {
  client: LlmClient
  /** The stable system prompt (steps block, tool manual...). Never trimmed. */
  system: string
  tools?: readonly ToolSpec[]
  /** Default: `native` when the provider supports tools, else the JSON protocol. */
  toolProtocol?: ToolProtocol
  /** Turns anonymization on; share one between a parent session and its subagents. */
  anonymizer?: Anonymizer
  /** Default: `client.contextWindow()`. */
  contextWindow?: number
}

export interface TurnOptions {
  /** Per-call context placed according to the provider's cache type (see `layoutMessages`). */
  dynamicContext?: string
  /** Force one JSON object as the answer (always on with the JSON protocol). */
  json?: boolean
  signal?: AbortSignal
  maxOutputTokens?: number
  /**
   * JSON protocol: the only methods this reply may call (a run's last step allows only `done`).
   * Drivers that constrain decoding (`local`) enforce it; the others still see every method.
   */
  onlyTools?: readonly string[]
}

export interface TurnResult {
  /** The answer's text, placeholders restored. With the JSON protocol: the JSON the model wrote. */
  text: string
  /** Calls to execute, arguments restored (JSON text, as the model wrote it: the tools pipeline repairs it). */
  toolCalls: ToolCall[]
  /** JSON protocol only: why the answer could not be read as a call (send this back as a correction). */
  protocolError?: string
  finishReason: FinishReason
  usage: Usage
  model: string
  /** Messages dropped from the history to fit the context window before this call. */
  trimmed: number
}

export type SessionEvent =
  /** Answer text, restored and safe to show (native protocol). */
  | { type: 'text'; text: string }
  /** JSON-protocol answer text as it streams (restored); usually not shown to the user. */
  | { type: 'protocol-text'; text: string }
  | { type: 'usage'; usage: Usage }
  | { type: 'done'; turn: TurnResult }

/** Space kept free for the answer when the provider sets no `maxOutputTokens`. */
const DEFAULT_ANSWER_RESERVE = 4096

/**
 * One model conversation: history, tool protocol, prompt-cache layout and anonymization in one
 * place. The agent adds user messages and tool results; `stream`/`send` run one model call and
 * append the model's answer to the history.
 */
export class LlmSession {
  readonly conversation: Conversation
  readonly toolProtocol: ToolProtocol
  private currentTools: readonly ToolSpec[]
  private readonly baseSystem: string
  private readonly client: LlmClient
  private readonly anonymizer: Anonymizer | undefined
  private readonly fixedWindow: number | undefined
  private calls = 0

  constructor(options: LlmSessionOptions) {
    this.client = options.client
    this.currentTools = options.tools ?? []
    this.anonymizer = options.anonymizer
    this.fixedWindow = options.contextWindow
    this.toolProtocol = options.toolProtocol ?? (options.client.provider.supportsTools ? 'native' : 'json')
    this.baseSystem = options.system
    this.conversation = new Conversation(this.systemText())
  }

  get tools(): readonly ToolSpec[] {
    return this.currentTools
  }

  /**
   * Replaces the tools from the next call on (a toolset disclosed mid-run). The JSON protocol lists
   * the tools in the system prompt, so that is rewritten too; the history stays as it is.
   */
  setTools(tools: readonly ToolSpec[]): void {
    this.currentTools = [...tools]
    this.conversation.system = this.systemText()
  }

  private systemText(): string {
    const sections = [this.baseSystem]
    if (this.toolProtocol === 'json' && this.currentTools.length > 0)
      sections.push(jsonProtocolInstructions(this.currentTools))
    if (this.anonymizer) sections.push(ANONYMIZATION_INSTRUCTION)
    return sections.filter((s) => s !== '').join('\n\n')
  }

  addUser(text: string): void {
    this.conversation.addUser(text)
  }

  addToolResult(toolCallId: string, name: string, content: string): void {
    this.conversation.addToolResult(toolCallId, name, content)
  }

  /** The request exactly as the next call would send it (anonymized): for tests and diagnostics. */
  async buildRequest(options: TurnOptions = {}): Promise<ChatRequest & { trimmed: number }> {
    const { provider } = this.client
    attachDynamicContext(this.conversation, provider.cacheType, options.dynamicContext)
    const window = this.fixedWindow ?? (await this.client.contextWindow(options.signal))
    const reserve = Math.min(
      options.maxOutputTokens ?? provider.maxOutputTokens ?? DEFAULT_ANSWER_RESERVE,
      Math.floor(window / 4),
    )
    const dynamicCost =
      provider.cacheType === 'none' && options.dynamicContext ? estimateTextTokens(options.dynamicContext) : 0
    const native = this.toolProtocol === 'native' && this.tools.length > 0
    const budget = window - reserve - dynamicCost - (native ? estimateToolsTokens(this.tools) : 0)
    const trimmed = this.conversation.fit(budget)
    let messages: ChatMessage[] = layoutMessages(
      this.conversation,
      this.conversation.system,
      provider.cacheType,
      options.dynamicContext,
    )
    if (this.toolProtocol === 'json') messages = toJsonProtocolMessages(messages)
    if (this.anonymizer) messages = anonymizeMessages(messages, this.anonymizer)
    return {
      messages,
      ...(native && { tools: [...this.tools] }),
      ...(this.toolProtocol === 'json' &&
        this.tools.length > 0 && { protocolTools: this.protocolTools(options.onlyTools) }),
      json: options.json === true || this.toolProtocol === 'json',
      ...(options.signal && { signal: options.signal }),
      ...(options.maxOutputTokens !== undefined && { maxOutputTokens: options.maxOutputTokens }),
      trimmed,
    }
  }

  private protocolTools(only: readonly string[] | undefined): ToolSpec[] {
    const allowed = only ? this.tools.filter((tool) => only.includes(tool.name)) : []
    return allowed.length > 0 ? allowed : [...this.tools]
  }

  /** Runs one model call, streaming restored text; the last event is `done` with the turn. */
  async *stream(options: TurnOptions = {}): AsyncGenerator<SessionEvent> {
    const { trimmed, ...request } = await this.buildRequest(options)
    const restorer: StreamRestorer | undefined = this.anonymizer?.streamRestorer()
    const textType = this.toolProtocol === 'json' ? 'protocol-text' : 'text'
    for await (const event of this.client.stream(request)) {
      if (event.type === 'text') {
        const text = restorer ? restorer.push(event.text) : event.text
        if (text !== '') yield { type: textType, text }
      } else if (event.type === 'usage') {
        yield event
      } else if (event.type === 'done') {
        const rest = restorer?.flush() ?? ''
        if (rest !== '') yield { type: textType, text: rest }
        yield { type: 'done', turn: this.finishTurn(event.result, trimmed) }
      }
    }
  }

  /** Runs one model call and returns the whole turn. */
  async send(options: TurnOptions = {}): Promise<TurnResult> {
    for await (const event of this.stream(options)) if (event.type === 'done') return event.turn
    throw new Error('the model call ended without a result')
  }

  private finishTurn(result: ChatResult, trimmed: number): TurnResult {
    const raw = result.message
    const restore = (text: string) => this.anonymizer?.restore(text) ?? text
    const restoreJson = (text: string) => this.anonymizer?.restoreJson(text) ?? text
    let toolCalls = raw.toolCalls
    let protocolError: string | undefined
    if (this.toolProtocol === 'json') {
      const reply = parseJsonProtocolReply(raw.content, `json_${++this.calls}`)
      toolCalls = reply.kind === 'call' ? [reply.call] : []
      if (reply.kind === 'invalid') protocolError = reply.error
    }
    // The history keeps the answer as the model wrote it (placeholders), so resending it never
    // reveals a term, whatever the model did around a placeholder.
    this.conversation.addAssistant(raw.content, toolCalls)
    return {
      text: restore(raw.content),
      toolCalls: toolCalls.map((call) => ({ ...call, arguments: restoreJson(call.arguments) })),
      ...(protocolError !== undefined && { protocolError }),
      finishReason: result.finishReason,
      usage: result.usage,
      model: result.model,
      trimmed,
    }
  }
}
