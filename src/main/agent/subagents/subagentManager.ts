import { randomUUID } from 'node:crypto'
import { jsonObjectOf } from '../../../shared/json'
import type { Toolset } from '../../tools'
import type { AgentLoop, CallOutcome, LoopOutcome, SubagentPort } from '../loop/agentLoop'
import { LaunchSubagentArgs, ProvideSubagentInputArgs } from '../loop/agentTools'
import type { AgentEvent } from '../types'

/** A sub-agent's own context: its loop (history, budget) and its tool session (own toolset instances). */
export interface ChildContext {
  loop: AgentLoop
  /** Releases the child's toolset instances (open workbooks, browser pages...). */
  dispose(): Promise<void>
}

interface ChildSession {
  id: string
  toolset: Toolset
  context: ChildContext
  question: string | undefined
  busy: boolean
}

export interface SubagentManagerOptions {
  toolsets: readonly Toolset[]
  createChild(toolset: Toolset, task: string): ChildContext
  emit(event: AgentEvent): void
}

/** What `launch_subagent` and `provide_subagent_input` return to the parent model. */
export type SubagentReply =
  | { done: true; sessionId: string; status: 'finished'; result: string; attachments: string[] }
  | { done: true; sessionId: string; status: 'waiting'; question: string }

export interface SubagentManager extends SubagentPort {
  /** Sessions paused with a question. */
  waiting(): Array<{ sessionId: string; toolset: string; question: string }>
  /** Queues the user's answer to a waiting sub-agent; false when none matches. */
  answer(input: string, sessionId?: string): boolean
  /** Releases every sub-agent still open (the parent run ended). */
  dispose(): Promise<void>
}

function invalidArgs(
  tool: string,
  error: { issues: Array<{ path: PropertyKey[]; message: string }> },
): CallOutcome {
  const issue = error.issues[0]
  const field = issue?.path.length ? `"${issue.path.map(String).join('.')}": ` : ''
  return { ok: false, error: `${tool}: ${field}${issue?.message ?? 'invalid arguments'}.` }
}

export function createSubagentManager(options: SubagentManagerOptions): SubagentManager {
  const sessions = new Map<string, ChildSession>()
  const userAnswers: Array<{ sessionId: string; input: string }> = []
  const names = () => options.toolsets.map((t) => t.name).join(', ')

  async function release(child: ChildSession): Promise<void> {
    sessions.delete(child.id)
    await child.context.dispose()
  }

  async function settle(child: ChildSession, outcome: LoopOutcome): Promise<CallOutcome> {
    const label = `The ${child.toolset.name} sub-agent`
    switch (outcome.kind) {
      case 'question':
        child.question = outcome.question
        options.emit({
          type: 'question',
          sessionId: child.id,
          toolset: child.toolset.name,
          question: outcome.question,
        })
        return {
          ok: true,
          value: { done: true, sessionId: child.id, status: 'waiting', question: outcome.question },
        }
      case 'done':
      case 'answered':
        await release(child)
        return {
          ok: true,
          value: {
            done: true,
            sessionId: child.id,
            status: 'finished',
            result: outcome.message,
            attachments: outcome.kind === 'done' ? outcome.attachments : [],
          },
        }
      case 'cancelled':
        await release(child)
        return { ok: false, error: `${label} was cancelled.`, cancelled: true }
      case 'budget':
        await release(child)
        return { ok: false, error: `${label} used its whole step budget without finishing.` }
      case 'repeated_failure':
        await release(child)
        return {
          ok: false,
          error: `${label} stopped: ${outcome.failure.method} failed ${outcome.failure.count} times with: ${outcome.failure.error}`,
        }
      case 'failed':
        await release(child)
        return { ok: false, error: `${label} failed: ${outcome.error}` }
    }
  }

  async function runChild(child: ChildSession): Promise<CallOutcome> {
    child.busy = true
    let outcome: LoopOutcome
    try {
      outcome = await child.context.loop.run()
    } catch (error) {
      await release(child)
      return { ok: false, error: `The ${child.toolset.name} sub-agent failed: ${String(error)}` }
    } finally {
      child.busy = false
    }
    return settle(child, outcome)
  }

  function pick(sessionId: string | undefined): ChildSession | string {
    const waiting = [...sessions.values()].filter((s) => s.question !== undefined && !s.busy)
    if (sessionId) {
      const session = sessions.get(sessionId.trim())
      if (!session) {
        const ids = waiting.map((s) => s.id).join(', ')
        return `There is no open sub-agent session "${sessionId}".${ids ? ` Waiting: ${ids}.` : ''}`
      }
      if (session.question === undefined || session.busy)
        return `Sub-agent session "${sessionId}" is not waiting for input.`
      return session
    }
    if (waiting.length === 1 && waiting[0]) return waiting[0]
    if (waiting.length === 0) return 'No sub-agent is waiting for input.'
    return `Several sub-agents are waiting; give sessionId, one of: ${waiting.map((s) => `${s.id} (${s.toolset.name})`).join(', ')}.`
  }

  async function provideTo(child: ChildSession, input: string): Promise<CallOutcome> {
    child.question = undefined
    child.context.loop.resume(input)
    return runChild(child)
  }

  return {
    async launch(rawArgs) {
      const parsed = LaunchSubagentArgs.safeParse(jsonObjectOf(rawArgs))
      if (!parsed.success) return invalidArgs('launch_subagent', parsed.error)
      const wanted = parsed.data.toolset.trim().toLowerCase()
      const toolset = options.toolsets.find((t) => t.name === wanted)
      if (!toolset)
        return {
          ok: false,
          error: `launch_subagent: there is no sub-agent "${parsed.data.toolset}". Available: ${names()}.`,
        }
      const child: ChildSession = {
        id: randomUUID().slice(0, 8),
        toolset,
        context: options.createChild(toolset, parsed.data.task),
        question: undefined,
        busy: false,
      }
      sessions.set(child.id, child)
      return runChild(child)
    },
    async provide(rawArgs) {
      const parsed = ProvideSubagentInputArgs.safeParse(jsonObjectOf(rawArgs))
      if (!parsed.success) return invalidArgs('provide_subagent_input', parsed.error)
      const child = pick(parsed.data.sessionId)
      if (typeof child === 'string') return { ok: false, error: `provide_subagent_input: ${child}` }
      return provideTo(child, parsed.data.input)
    },
    async takeUserAnswers() {
      const notes: string[] = []
      for (const answer of userAnswers.splice(0)) {
        const child = pick(answer.sessionId)
        if (typeof child === 'string') continue
        const outcome = await provideTo(child, answer.input)
        const reply = outcome.ok ? JSON.stringify(outcome.value) : `Error: ${outcome.error}`
        notes.push(
          `The user answered the question of the ${child.toolset.name} sub-agent (session ${child.id}): "${answer.input}". The sub-agent replied: ${reply}`,
        )
      }
      return notes
    },
    hasUserAnswers: () => userAnswers.length > 0,
    waiting() {
      return [...sessions.values()]
        .filter((s) => s.question !== undefined)
        .map((s) => ({ sessionId: s.id, toolset: s.toolset.name, question: s.question as string }))
    },
    answer(input, sessionId) {
      const child = pick(sessionId)
      if (typeof child === 'string') return false
      if (userAnswers.some((a) => a.sessionId === child.id)) return false
      userAnswers.push({ sessionId: child.id, input })
      return true
    },
    async dispose() {
      userAnswers.length = 0
      await Promise.all([...sessions.values()].map((child) => release(child)))
    },
  }
}
