import type { z } from 'zod'
import type { ApprovalBy } from '../../shared/chat/approval'
import type { ErrorCode } from '../../shared/errors'
import type { Logger } from '../platform'
import type { Workspace } from '../workspace'
import type { UrlGuard } from './net/urlGuard'

/** How much a method can change: used for approvals (`write` changes files, `external` reaches the network). */
export type Risk = 'read' | 'write' | 'external'

export interface ProgressUpdate {
  message?: string
  /** 0..1 when the method knows how far it is. */
  fraction?: number
}

/** What a method's `run` receives besides its validated arguments. */
export interface ToolContext {
  /** The sandboxed workspace; reading it when the session has none gives a clear tool error. */
  readonly workspace: Workspace
  readonly signal: AbortSignal
  readonly log: Logger
  readonly progress: (update: ProgressUpdate) => void
  /** HTTP toolsets check every URL here instead of calling fetch on raw input. */
  readonly urlGuard: UrlGuard
  readonly session: ToolSession
}

export interface ToolCall {
  toolset: string
  /** The method key as declared (camelCase). */
  method: string
  /** The API-mode name, e.g. `spreadsheet_set_cell_value`. */
  name: string
  /** The validated arguments (after repair, coercion and defaults). */
  args?: Record<string, unknown>
  /** What the approval gate decided, when the run has one (kept in the run's steps). */
  approval?: ApprovalRecord
}

/**
 * Where a call failed: `usage`, `resolve` and `arguments` are the caller's mistakes (exit 2 in
 * `bureau tool`), `run` and `output` happened in the method, `cancelled` by the abort signal.
 */
export type ToolFailureStage =
  | 'usage'
  | 'resolve'
  | 'arguments'
  | 'run'
  | 'output'
  | 'cancelled'
  | 'session'
  /** The approval gate refused the call (a policy, the user, or a timeout); the method never ran. */
  | 'denied'

export interface ToolSuccess<T = unknown> {
  ok: true
  value: T
  durationMs: number
  call?: ToolCall
  /** Set when the value is help text from the CLI-mode terminal rather than a method result. */
  help?: true
}

export interface ToolFailure {
  ok: false
  /** Short text a model can act on: no stack, no host path. */
  error: string
  code: ErrorCode
  stage: ToolFailureStage
  durationMs: number
  call?: ToolCall
}

export type ToolResult<T = unknown> = ToolSuccess<T> | ToolFailure

export function isUsageFailure(result: ToolResult): boolean {
  return (
    !result.ok && (result.stage === 'usage' || result.stage === 'resolve' || result.stage === 'arguments')
  )
}

/** One thing a call acts on, for the approval card: `Page` → URL, `Element` → `button "Send"`, … */
export interface ApprovalTouch {
  label: string
  value: string
}

/** A validated call the approval gate decides on before the method runs. */
export interface ApprovalRequest {
  toolset: string
  method: string
  name: string
  risk: Risk
  args: Record<string, unknown>
  /** What the call touches (`MethodSpec.approvalTarget`), when the method can tell. */
  target?: ApprovalTouch[]
}

export type { ApprovalBy }

/** The gate's answer; `reason` reaches the model as the tool result ("denied by the user"). */
export type ApprovalVerdict =
  /** `args`: the arguments as the user changed them on the card (validated again before the method runs). */
  | { allowed: true; by?: ApprovalBy; args?: Record<string, unknown> }
  | { allowed: false; reason: string; by?: ApprovalBy }

/** A decision as a call and its step keep it. */
export interface ApprovalRecord {
  outcome: 'allowed' | 'denied'
  by: ApprovalBy
  risk: Risk
}

/** Decides on a call for an agent run; the CLI's direct commands and the UI's buttons pass none. */
export type ApprovalGate = (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalVerdict>

// Declarations, registry, session state and session refer to each other, so their types live together
// here and the files that implement them import from this one (no import cycle, type imports included).

export type InputSchema = z.ZodObject
export type OutputSchema = z.ZodType

/** An example call: either the arguments themselves or `{ args, description }`. */
export type MethodExample<Args> = Args | { args: Args; description?: string }

export interface MethodSpec<I extends InputSchema, O extends OutputSchema> {
  description: string
  input: I
  output: O
  examples?: ReadonlyArray<MethodExample<z.input<I>>>
  /** The most a call can change; the approval gate asks about `riskOf` when the method has it. */
  risk: Risk
  /**
   * The risk of one call when it depends on its arguments (a calendar on a server reaches the network,
   * one in a workspace file only writes a file); never more than `risk`.
   */
  riskOf?(args: z.output<I>): Risk
  run(args: z.output<I>, ctx: ToolContext): Promise<z.input<O>> | z.input<O>
  /**
   * What the call touches, shown on an approval card (the page and element of a click, the recipients of
   * a mail). Asked only when a call needs approval; it must not act, and a failure only leaves it out.
   */
  approvalTarget?(args: z.output<I>, ctx: ToolContext): Promise<ApprovalTouch[]> | ApprovalTouch[]
}

export interface ToolMethod<I extends InputSchema = InputSchema, O extends OutputSchema = OutputSchema>
  extends MethodSpec<I, O> {
  readonly kind: 'method'
}

export type AnyToolMethod = ToolMethod<InputSchema, OutputSchema>

/** What makes an agent run open a toolset before the model asks (API mode discloses toolsets on demand). */
export interface OpenSignals {
  /** An attachment with one of these extensions (lower case, with the dot), e.g. `.xlsx`. */
  readonly extensions?: readonly string[]
  /** A web address in the user's message. */
  readonly urls?: boolean
}

export interface ToolsetSpec<M extends Record<string, AnyToolMethod>> {
  name: string
  /** One line: what the toolset is for. The system prompt lists toolsets by it. */
  summary: string
  /** Conventions shared by the methods, stated once (help text, and the first method's tool). */
  description?: string
  methods: M
  openFor?: OpenSignals
}

export interface Toolset<M extends Record<string, AnyToolMethod> = Record<string, AnyToolMethod>> {
  readonly kind: 'toolset'
  readonly name: string
  readonly summary: string
  readonly description: string
  readonly methods: Readonly<M>
  readonly openFor?: OpenSignals
}

export interface RegisteredMethod {
  readonly toolset: Toolset
  readonly key: string
  readonly method: AnyToolMethod
  /** `<toolset>_<method_snake>` */
  readonly name: string
}

export type AddToolsetResult = { added: true } | { added: false; reason: string }

/**
 * The set of toolsets a host provides. `list()` returns a frozen snapshot whose identity changes
 * whenever the set changes, so catalogs and name indexes can be cached per snapshot.
 */
export interface ToolRegistry {
  list(): readonly Toolset[]
  get(name: string): Toolset | undefined
  /** Who provided a toolset: `builtin` or the plugin folder it came from. */
  sourceOf(name: string): string | undefined
  add(toolset: Toolset, source?: string): AddToolsetResult
  remove(name: string): boolean
  methods(): readonly RegisteredMethod[]
  onChange(listener: () => void): () => void
}

/** A piece of state that could not be written when a session was flushed, e.g. a workbook save. */
export interface FlushFailure {
  /** The agent path that was not written, when the failure concerns one. */
  path?: string
  error: string
}

export interface SessionStateHandle<T> {
  /** A name for messages; state is keyed by the handle itself, so a reloaded plugin starts fresh. */
  readonly key: string
  readonly create: (ctx: ToolContext) => T
  readonly dispose?: (value: T) => Promise<void> | void
  /** Writes pending changes now (before the agent's answer is accepted) and lists what failed. */
  readonly flush?: (value: T) => Promise<readonly FlushFailure[]>
  /** This session's value, created on first use. */
  get(ctx: ToolContext): T
}

export interface SessionDisposeReport {
  /** One line per state whose disposer failed, e.g. a workbook that could not be saved. */
  errors: string[]
}

/**
 * The toolset instances of one CLI stdin session, agent run or subagent. State is created lazily
 * per handle and disposed (in reverse order of creation) when the session ends.
 */
/** Whom a session works for, when it is a conversation's: toolsets that record a source name it. */
export interface ToolOrigin {
  readonly conversationId: string
  readonly title?: string | undefined
}

export interface ToolSession {
  readonly id: string
  readonly origin: ToolOrigin | undefined
  readonly registry: ToolRegistry
  readonly workspace: Workspace | undefined
  readonly urlGuard: UrlGuard
  readonly logger: Logger
  /** Aborted when the session is disposed. */
  readonly signal: AbortSignal
  readonly disposed: boolean
  state<T>(handle: SessionStateHandle<T>, ctx: ToolContext): T
  /** Writes every state's pending changes now (open workbooks are saved); lists what failed. */
  flush(): Promise<FlushFailure[]>
  dispose(): Promise<SessionDisposeReport>
}
