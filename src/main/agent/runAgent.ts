import type { AgentStep } from '../../shared/ipc'
import { MEMORY_RECALL_STEP } from '../../shared/memory'
import { type InteractionMode, selectInteractionMode } from '../../shared/settings'
import { type LlmClient, LlmSession, type ToolSpec } from '../llm'
import {
  CLI_TOOL_NAME,
  cliCommandPrefixes,
  createToolSession,
  getCatalog,
  lazyWorkspace,
  type Toolset,
  toolsetList,
} from '../tools'
import type { Workspace } from '../workspace'
import { prepareAttachments } from './attachments/prepareAttachments'
import { disclose } from './disclosure/discloseForRun'
import { customInstructionsSection } from './instructions/customInstructions'
import { AgentLoop, type LoopConfig, type LoopOutcome } from './loop/agentLoop'
import { doneSpec, subagentSpecs } from './loop/agentTools'
import { endMessage } from './loop/endMessage'
import { clockSection, composeSystemPrompt } from './prompt/composeSystemPrompt'
import { createSubagentManager, type SubagentManager } from './subagents/subagentManager'
import {
  type AgentEvent,
  type AgentResult,
  type AgentStatus,
  emptyUsage,
  type RunAgentOptions,
  type ToolProtocol,
} from './types'

export const DEFAULT_MAX_ITERATIONS = 50

/** A run in progress: its result, and a way to answer a sub-agent's question from outside (the UI). */
export interface AgentRun {
  readonly result: Promise<AgentResult>
  /** Queues the user's answer for a waiting sub-agent (auto-selected when one waits); false when none matches. */
  answer(input: string, sessionId?: string): boolean
  waiting(): Array<{ sessionId: string; toolset: string; question: string }>
}

function toolSpecs(toolsets: readonly Toolset[], mode: InteractionMode): ToolSpec[] {
  return getCatalog(toolsets, mode).tools.map((tool) => ({
    name: tool.function.name,
    description: tool.function.description,
    parameters: tool.function.parameters as Record<string, unknown>,
    // A local model's grammar then lets `command` start only with a real toolset and method.
    ...(tool.function.name === CLI_TOOL_NAME && {
      command: { argument: 'command', prefixes: cliCommandPrefixes(toolsets) },
    }),
  }))
}

async function chooseMode(model: LlmClient, signal: AbortSignal): Promise<InteractionMode> {
  const { provider } = model
  let contextWindow = provider.contextWindow
  if (!provider.interactionMode && contextWindow === undefined) {
    contextWindow = await model.contextWindow(signal).catch(() => undefined)
  }
  return selectInteractionMode({ explicit: provider.interactionMode, contextWindow })
}

function safeEmitter(listener: RunAgentOptions['onEvent']): (event: AgentEvent) => void {
  return (event) => {
    try {
      listener?.(event)
    } catch {
      // A failing listener must not stop the run.
    }
  }
}

function statusOf(outcome: LoopOutcome): AgentStatus {
  if (outcome.kind === 'question') return 'done'
  return outcome.kind
}

/**
 * Runs the agent on one request: prepares the attachments, composes the prompt, then calls the model
 * and executes its tool calls until it calls `done`, answers directly, or the budget is spent.
 */
export function startAgent(options: RunAgentOptions): AgentRun {
  let manager: SubagentManager | undefined
  const result = execute(options, (created) => {
    manager = created
  })
  return {
    result,
    answer: (input, sessionId) => manager?.answer(input, sessionId) ?? false,
    waiting: () => manager?.waiting() ?? [],
  }
}

export function runAgent(options: RunAgentOptions): Promise<AgentResult> {
  return startAgent(options).result
}

async function execute(
  options: RunAgentOptions,
  onManager: (manager: SubagentManager) => void,
): Promise<AgentResult> {
  const signal = options.signal ?? new AbortController().signal
  const emit = safeEmitter(options.onEvent)
  const usage = emptyUsage()
  const steps: AgentStep[] = []
  const toolsets = toolsetList(options.toolsets)
  const subagents = options.subagents ?? []
  const maxIterations = Math.max(1, options.maxIterations ?? DEFAULT_MAX_ITERATIONS)
  const getWorkspace = lazyWorkspace(options.workspace)
  const base = (received: AgentResult['received']): AgentResult => ({
    status: 'cancelled',
    message: '',
    attachments: [],
    steps,
    usage,
    text: '',
    received,
  })

  let prepared: Awaited<ReturnType<typeof prepareAttachments>>
  let mode: InteractionMode
  try {
    prepared = await prepareAttachments({
      attachments: options.attachments ?? [],
      converter: options.converter,
      workspace: getWorkspace,
      budgetChars: options.attachmentBudgetChars,
      signal,
      onEvent: emit,
      logger: options.logger,
    })
    mode = options.interactionMode ?? (await chooseMode(options.model, signal))
  } catch (error) {
    if (signal.aborted) return base([])
    throw error
  }
  const protocol: ToolProtocol =
    options.toolProtocol ?? (options.model.provider.supportsTools ? 'native' : 'json')
  const session = createToolSession({
    toolsets: options.toolsets,
    workspace: () => getWorkspace() as Workspace,
    origin: options.origin,
    ...(options.urlGuard ? { urlGuard: options.urlGuard } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  })
  const newLlm = (system: string, tools: ToolSpec[]) =>
    new LlmSession({
      client: options.model,
      system,
      tools,
      toolProtocol: protocol,
      ...(options.anonymizer ? { anonymizer: options.anonymizer } : {}),
    })
  const common = {
    mode,
    maxIterations,
    maxToolResultChars: options.maxToolResultChars,
    signal,
    usage,
    steps,
    workspace: getWorkspace,
    logger: options.logger,
    ...(options.approve && { approve: options.approve }),
  }

  const manager =
    subagents.length > 0
      ? createSubagentManager({
          toolsets: subagents,
          emit,
          createChild(toolset, task) {
            const childSession = createToolSession({
              toolsets: [toolset],
              workspace: () => getWorkspace() as Workspace,
              origin: options.origin,
              ...(options.urlGuard ? { urlGuard: options.urlGuard } : {}),
              ...(options.logger ? { logger: options.logger } : {}),
            })
            const llm = newLlm(
              composeSystemPrompt({ toolsets: [toolset], subagents: [], mode, protocol, role: 'subagent' }),
              [...toolSpecs([toolset], mode), doneSpec('subagent')],
            )
            llm.addUser(task)
            const config: LoopConfig = {
              ...common,
              role: 'subagent',
              llm,
              session: childSession,
              subagentName: toolset.name,
              emit,
            }
            return {
              loop: new AgentLoop(config),
              dispose: async () => {
                await childSession.dispose()
              },
            }
          },
        })
      : undefined
  if (manager) onManager(manager)

  const agentSpecs = [
    doneSpec('agent'),
    ...(subagents.length > 0 ? subagentSpecs(subagents.map((t) => t.name)) : []),
  ]
  const system =
    composeSystemPrompt({ toolsets, subagents, mode, protocol, role: 'agent' }) +
    clockSection(options.clock) +
    customInstructionsSection(options.instructions) +
    (options.memory?.block ?? '')
  if (options.memory && options.memory.used.length > 0) {
    const step: AgentStep = {
      id: 'memories',
      method: MEMORY_RECALL_STEP,
      args: {},
      status: 'ok',
      result: { memories: options.memory.used, tokens: options.memory.tokens },
      startedAt: new Date().toISOString(),
      durationMs: 0,
    }
    steps.push(step)
    emit({ type: 'step', phase: 'finished', step })
  }
  const llm = newLlm(system, mode === 'api' ? agentSpecs : [...toolSpecs(toolsets, mode), ...agentSpecs])
  const disclosure =
    mode === 'api' ? disclose(llm, agentSpecs, toolsets, session.registry, options) : undefined
  for (const turn of options.history ?? []) {
    if (turn.role === 'user') llm.addUser(turn.content)
    else llm.conversation.addAssistant(turn.content)
  }
  llm.addUser(prepared.context ? `${options.prompt}\n\n${prepared.context}` : options.prompt)
  const config: LoopConfig = {
    ...common,
    role: 'agent',
    llm,
    session,
    ...(manager ? { subagents: manager } : {}),
    ...(disclosure ? { disclosure } : {}),
    emit,
  }
  const loop = new AgentLoop(config)

  let outcome: LoopOutcome
  try {
    outcome = await loop.run()
  } finally {
    await manager?.dispose()
    const disposal = await session.dispose()
    for (const error of disposal.errors) emit({ type: 'notice', message: `Could not close a tool: ${error}` })
  }

  const ended = endMessage(outcome, { maxIterations, steps, text: loop.text })
  if (ended.announce) loop.sayFinal(ended.message)
  return {
    ...base(prepared.meta),
    status: statusOf(outcome),
    message: ended.message,
    attachments: outcome.kind === 'done' ? outcome.attachments : [],
    text: loop.text,
    ...(ended.error ? { error: ended.error } : {}),
  }
}
