import { isAppError } from '../../../shared/errors'
import type { AgentStep } from '../../../shared/ipc'
import { jsonObjectOf } from '../../../shared/json'
import type { InteractionMode } from '../../../shared/settings'
import type { LlmSession, ToolCall, TurnResult } from '../../llm'
import type { Logger } from '../../platform'
import { type ApprovalGate, type FlushFailure, invoke, type ToolSession } from '../../tools'
import type { Workspace } from '../../workspace'
import { OPEN_TOOLSET_TOOL } from '../disclosure/openToolsetTool'
import type { ToolDisclosure } from '../disclosure/toolDisclosure'
import type { AgentEvent, AgentUsage } from '../types'
import { addUsage } from '../types'
import { agentToolName } from './agentToolNames'
import { DONE_TOOL } from './agentTools'
import { callModel } from './callModel'
import { checkDone, type DoneOutcome } from './doneCall'
import { createFailureTracker, type RepeatedFailure } from './failureTracker'
import { displayMethod, finishStep, startStep, withCall } from './stepRecord'
import { toolResultText, valueText } from './toolResultText'
import { saveFailedText, unsavedNote, withoutUnsaved } from './unsavedChanges'

/** What the loop needs from the sub-agent manager (absent inside a sub-agent: no nesting). */
export interface SubagentPort {
  launch(args: unknown, signal: AbortSignal): Promise<CallOutcome>
  provide(args: unknown, signal: AbortSignal): Promise<CallOutcome>
  /** Answers the user gave through the app (`chat.answer`) since the last model call. */
  takeUserAnswers(signal: AbortSignal): Promise<string[]>
  /** Whether the user answered a question the model has not seen yet (the run must not end first). */
  hasUserAnswers(): boolean
}

export type CallOutcome = { ok: true; value: unknown } | { ok: false; error: string; cancelled?: boolean }

export interface LoopConfig {
  role: 'agent' | 'subagent'
  /** The model conversation: history, tool protocol, caching layout and anonymization. */
  llm: LlmSession
  session: ToolSession
  mode: InteractionMode
  subagents?: SubagentPort
  /** Set inside a sub-agent: its toolset name, shown on its steps. */
  subagentName?: string
  maxIterations: number
  maxToolResultChars?: number
  /** Shared by a run and its sub-agents: steps in the order they started. */
  steps: AgentStep[]
  signal: AbortSignal
  emit: (event: AgentEvent) => void
  usage: AgentUsage
  workspace: () => Workspace | undefined
  logger?: Logger
  /** API mode: the toolsets whose methods the model sees; absent when every method is always there. */
  disclosure?: ToolDisclosure
  /** Asked before each method runs (approvals); absent: every call runs. */
  approve?: ApprovalGate
}

export type LoopOutcome =
  | { kind: 'done'; message: string; attachments: string[] }
  | { kind: 'answered'; message: string }
  | { kind: 'question'; question: string }
  | { kind: 'budget' }
  | { kind: 'repeated_failure'; failure: RepeatedFailure }
  | { kind: 'failed'; error: string }
  | { kind: 'cancelled' }

const UNSEEN_ANSWER =
  'Not finished yet: the user has just answered a sub-agent question. Read the answer that follows, then finish.'

function modelError(error: unknown): string {
  if (isAppError(error)) return error.message
  return error instanceof Error ? error.message.split('\n')[0] || 'unknown error' : String(error)
}

/**
 * One agent context: its history, tool session and step budget. `run` calls the model until it
 * finishes, asks (sub-agents) or runs out; `resume` feeds the answer to a question and `run` goes on.
 */
export class AgentLoop {
  /** Everything shown to the user, joined exactly as the text events were sent. */
  text = ''
  private iterations = 0
  private readonly tracker = createFailureTracker()
  private pendingQuestion: { id: string; name: string } | undefined
  /** The model was told once that pending changes could not be saved; the next answer is accepted. */
  private saveFailureShown = false

  constructor(private readonly config: LoopConfig) {}

  /** Feeds the answer to the question this loop paused with. */
  resume(input: string): void {
    const pending = this.pendingQuestion
    this.pendingQuestion = undefined
    const content = `Answer to your question: ${input}`
    if (pending) this.config.llm.addToolResult(pending.id, pending.name, content)
    else this.config.llm.addUser(content)
  }

  async run(): Promise<LoopOutcome> {
    const { config } = this
    while (this.iterations < config.maxIterations) {
      if (config.signal.aborted) return { kind: 'cancelled' }
      await this.applyUserAnswers()
      this.iterations++
      let separate = this.text.length > 0
      let turn: Awaited<ReturnType<typeof callModel>>
      try {
        turn = await callModel(config.llm, {
          signal: config.signal,
          // The last step may only finish: a small local model ends with an answer instead of running out.
          ...(this.iterations === config.maxIterations && { onlyTools: [DONE_TOOL] }),
          textMode:
            config.role === 'subagent' ? 'none' : config.llm.toolProtocol === 'json' ? 'sniff' : 'all',
          onText: (chunk) => {
            if (!separate) return this.say(chunk)
            const text = chunk.replace(/^\s+/, '')
            if (text === '') return
            this.say(`${this.gap()}${text}`)
            separate = false
          },
        })
      } catch (error) {
        if (config.signal.aborted) return { kind: 'cancelled' }
        config.logger?.warn('model call failed', { error: modelError(error) })
        return { kind: 'failed', error: modelError(error) }
      }
      addUsage(config.usage, turn.turn.usage)
      const outcome = await this.handleTurn(turn.turn, turn.shown)
      if (outcome) return outcome
    }
    return { kind: 'budget' }
  }

  /** What separates a new paragraph from the text already said: a blank line, never more. */
  private gap(): string {
    if (this.text === '' || this.text.endsWith('\n\n')) return ''
    return this.text.endsWith('\n') ? '\n' : '\n\n'
  }

  private say(text: string): void {
    if (!text || this.config.role === 'subagent') return
    this.text += text
    this.config.emit({ type: 'text', text })
  }

  /** Says a final message after whatever was streamed, separated by a blank line. */
  sayFinal(message: string): void {
    const trimmed = message.trim()
    if (!trimmed) return
    this.say(`${this.gap()}${trimmed}`)
  }

  private async applyUserAnswers(): Promise<void> {
    const answers = await this.config.subagents?.takeUserAnswers(this.config.signal)
    for (const note of answers ?? []) this.config.llm.addUser(note)
  }

  /** The model's answer is already in the history; the correction follows it as a user message. */
  private correct(note: string, failure: string): LoopOutcome | undefined {
    this.config.llm.addUser(note)
    const repeated = this.tracker.failure('reply', failure)
    return repeated ? { kind: 'repeated_failure', failure: repeated } : undefined
  }

  private async handleTurn(turn: TurnResult, shown: string): Promise<LoopOutcome | undefined> {
    const { config } = this
    if (turn.protocolError !== undefined) return this.correct(turn.protocolError, turn.protocolError)
    const calls = turn.toolCalls.map((call: ToolCall) => ({
      id: call.id,
      name: call.name,
      args: call.arguments,
    }))
    const content = turn.text

    if (calls.length === 0) {
      if (content.trim() === '') {
        const note = `Your reply was empty. Call a method, or call ${DONE_TOOL} when the task is complete.`
        return this.correct(note, 'empty reply')
      }
      if (shown === '') this.say(`${this.gap()}${content.trim()}`)
      // A JSON-protocol answer whose prose held a brace was shown only up to it: show the rest.
      else if (content.startsWith(shown)) this.say(content.slice(shown.length).trimEnd())
      // The user answered a sub-agent meanwhile: go on, the answer comes before the next model call.
      if (config.role === 'agent' && config.subagents?.hasUserAnswers()) return undefined
      const note = unsavedNote(await config.session.flush())
      if (note) this.sayFinal(note)
      const message = note ? `${content.trim()}\n\n${note}` : content.trim()
      if (config.role === 'subagent') return { kind: 'done', message, attachments: [] }
      return { kind: 'answered', message }
    }

    for (const [index, call] of calls.entries()) {
      if (config.signal.aborted) return { kind: 'cancelled' }
      if (agentToolName(call.name) === DONE_TOOL) {
        // Pending changes (open workbooks) are saved before the answer is accepted, so the answer can
        // say what failed and never hands back a file whose save failed.
        const unsaved = await config.session.flush()
        if (unsaved.length > 0 && !this.saveFailureShown) {
          this.saveFailureShown = true
          const stop = this.feed(call, { ok: false, error: saveFailedText(unsaved) }, DONE_TOOL)
          if (stop) return stop
          continue
        }
        let done = await checkDone(call.args, config.role, config.workspace())
        if (done.ok && done.question === undefined && !done.message && !this.text.trim())
          done = {
            ok: false,
            error: 'done: "message" is empty; write the answer or what you did for the user.',
          }
        if (done.ok && done.question === undefined && config.subagents?.hasUserAnswers()) {
          this.skipRest(calls.slice(index + 1))
          config.llm.addToolResult(call.id, call.name, UNSEEN_ANSWER)
          return undefined
        }
        if (done.ok) {
          this.skipRest(calls.slice(index + 1))
          return this.finish(done, call, unsaved)
        }
        const stop = this.feed(call, { ok: false, error: done.error }, DONE_TOOL)
        if (stop) return stop
        continue
      }
      if (agentToolName(call.name) === OPEN_TOOLSET_TOOL) {
        const stop = this.feed(call, this.openToolset(call.args), OPEN_TOOLSET_TOOL)
        if (stop) return stop
        continue
      }
      const gate = config.disclosure?.gate(call.name)
      if (gate !== undefined) {
        const stop = this.feed(call, { ok: false, error: gate }, call.name)
        if (stop) return stop
        continue
      }
      const stop = await this.execute(call)
      if (stop) return stop
    }
    return undefined
  }

  private openToolset(args: unknown): CallOutcome {
    const disclosure = this.config.disclosure
    if (!disclosure)
      return {
        ok: true,
        value: 'Every toolset is already available here; run "<toolset> --help" to see its methods.',
      }
    const reply = disclosure.openFromCall(args)
    return reply.ok ? { ok: true, value: reply.text } : { ok: false, error: reply.error }
  }

  private finish(
    done: DoneOutcome & { ok: true },
    call: { id: string; name: string },
    unsaved: readonly FlushFailure[],
  ): LoopOutcome {
    if (done.question !== undefined) {
      this.pendingQuestion = { id: call.id, name: call.name }
      return { kind: 'question', question: done.question }
    }
    this.sayFinal(done.message)
    // An empty message after streamed narration: the narration was the answer.
    const message = done.message || this.text.trim()
    const note = unsavedNote(unsaved)
    if (!note) return { kind: 'done', message, attachments: done.attachments }
    this.sayFinal(note)
    return {
      kind: 'done',
      message: message ? `${message}\n\n${note}` : note,
      attachments: withoutUnsaved(done.attachments, unsaved),
    }
  }

  private skipRest(calls: Array<{ id: string; name: string }>): void {
    for (const call of calls)
      this.config.llm.addToolResult(call.id, call.name, 'Not run: done was called first.')
  }

  /** Runs one method or sub-agent call as a step; returns an outcome when the loop must stop. */
  private async execute(call: { id: string; name: string; args: unknown }): Promise<LoopOutcome | undefined> {
    const { config } = this
    const kind = agentToolName(call.name)
    const started = performance.now()
    let step = startStep(
      kind ? `agent.${kind}` : displayMethod(config.session, call.name, call.args),
      kind ? jsonObjectOf(call.args) : displayArgs(call.args),
      config.subagentName,
    )
    this.record(step, 'started')
    let outcome: CallOutcome
    if (kind && config.subagents) {
      outcome =
        kind === 'launch_subagent'
          ? await config.subagents.launch(call.args, config.signal)
          : await config.subagents.provide(call.args, config.signal)
    } else if (kind) {
      outcome = { ok: false, error: `${kind} is not available here: there are no sub-agents to delegate to.` }
    } else {
      const result = await invoke(config.session, call.name, call.args, {
        signal: config.signal,
        style: config.mode,
        ...(config.approve && { approve: config.approve }),
      })
      step = withCall(step, result)
      outcome = result.ok
        ? { ok: true, value: result.value }
        : { ok: false, error: result.error, cancelled: result.stage === 'cancelled' }
      if (result.ok) {
        this.record(finishStep(step, outcome, performance.now() - started), 'finished')
        return this.feedText(call, toolResultText(result, config.maxToolResultChars), step.method, true)
      }
    }
    step = finishStep(step, outcome, performance.now() - started)
    this.record(step, 'finished')
    if (!outcome.ok && outcome.cancelled) return { kind: 'cancelled' }
    return this.feed(call, outcome, step.method)
  }

  private record(step: AgentStep, phase: 'started' | 'finished'): void {
    const steps = this.config.steps
    const index = steps.findIndex((s) => s.id === step.id)
    if (index >= 0) steps[index] = step
    else steps.push(step)
    this.config.emit({ type: 'step', phase, step })
  }

  private feed(
    call: { id: string; name: string },
    outcome: CallOutcome,
    method: string,
  ): LoopOutcome | undefined {
    const text = outcome.ok
      ? valueText(outcome.value, this.config.maxToolResultChars)
      : `Error: ${outcome.error}`
    return this.feedText(call, text, method, outcome.ok)
  }

  private feedText(
    call: { id: string; name: string },
    text: string,
    method: string,
    ok: boolean,
  ): LoopOutcome | undefined {
    this.config.llm.addToolResult(call.id, call.name, text)
    if (ok) {
      this.tracker.success()
      return undefined
    }
    const repeated = this.tracker.failure(method, text)
    return repeated ? { kind: 'repeated_failure', failure: repeated } : undefined
  }
}

function displayArgs(args: unknown): unknown {
  if (typeof args !== 'string') return args
  const parsed = jsonObjectOf(args)
  return Object.keys(parsed).length > 0 ? parsed : args
}
