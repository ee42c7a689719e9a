import { randomUUID } from 'node:crypto'
import { activePath } from '../../../shared/chat/conversationTree'
import { AppError } from '../../../shared/errors'
import type {
  ApprovalDecision,
  ChatMessage,
  ChatSendInput,
  ChatSendResult,
  Conversation,
  Events,
} from '../../../shared/ipc'
import type { EventBus } from '../../platform'
import {
  type ApprovalGate,
  createToolSession,
  invoke,
  type Toolset,
  type ToolsetSource,
  toolsetList,
} from '../../tools'
import type { Workspace } from '../../workspace'
import { policyFor, withGrant } from '../approvals'
import type { ConversationStore } from '../conversations/conversationStore'
import { type AgentRun, startAgent } from '../runAgent'
import type { AgentEvent, AgentResult } from '../types'
import type { ActiveRuns } from './activeRuns'
import { type MessageRef, refuseBusy } from './chatConversations'
import { delegatable } from './delegatable'
import { type DetachedChatInput, type DetachedRunInput, runDetached, streamDetached } from './detachedRun'
import { historyOf } from './historyOf'
import { memoryForTurn } from './memoryProposals'
import { assistantMessageOf, continuedMessageOf } from './messageOf'
import { createRunApprovals } from './runApprovals'
import { type ChatRunDeps, runEnvironment } from './runEnvironment'
import {
  continuePlan,
  editPlan,
  pendingAssistant,
  pendingUser,
  regeneratePlan,
  type TurnPlan,
} from './turnPlans'
import {
  autoApproveOf,
  type UnattendedDecision,
  type UnattendedRunInput,
  type UnattendedRunResult,
  unattendedGate,
} from './unattendedRun'

/** Where the service sends the contract's chat.* and agent.* events (the app's event bus). */
export type ChatEventSink = Pick<EventBus<Events>, 'emit'>

export interface ChatServiceOptions extends ChatRunDeps {
  store: ConversationStore
  toolsets: () => ToolsetSource | Promise<ToolsetSource>
  events: ChatEventSink
  /** The global custom instruction (the setting `agent.instructions`), read as each run starts. */
  instructions?: () => string | undefined
  /** The user's time zone (told to the model with today's date), read as each run starts. */
  timeZone?: () => string
}

export interface ActiveRun {
  runId: string
  conversationId: string
  controller: AbortController
  agent: AgentRun | undefined
  finished: Promise<void>
  /** Unattended runs: the gate and step budget of the automation instead of the chat's. */
  unattended?: { approve: ApprovalGate; maxIterations: number }
  outcome?: { result: AgentResult | undefined; failure: string | undefined; files: ChatMessage['files'] }
}

/** The replies: streaming runs with their tools, questions and approvals, stop, and runs outside any conversation. */
export interface ChatRuns {
  /** Starts a run and returns at once; progress arrives as events. */
  send(input: ChatSendInput): Promise<ChatSendResult>
  cancel(runId: string): boolean
  answer(runId: string, input: string, sessionId?: string): boolean
  /** A new answer to the question (the earlier one stays as a version). */
  regenerate(ref: MessageRef): Promise<ChatSendResult>
  /** An edited copy of a question with its files, answered as a new branch. */
  edit(ref: MessageRef & { text: string }): Promise<ChatSendResult>
  /** More of a stopped answer, in the same message. */
  continue(ref: MessageRef): Promise<ChatSendResult>
  /** Answers an approval card of a run; false when it is no longer pending. */
  approve(runId: string, approvalId: string, decision: ApprovalDecision, text?: string): boolean
  /**
   * An unattended run (automations) kept as a conversation of its own: it never waits for a click,
   * calls above its level are denied, every decision is returned; resolves when the run has ended.
   */
  runUnattended(input: UnattendedRunInput): Promise<UnattendedRunResult>
  /** One agent run outside any conversation (the OpenAI bridge): nothing saved, no bus events. */
  runDetached(input: DetachedRunInput): Promise<AgentResult>
  /** A plain streaming answer outside any conversation, with history and usage (the bridge's `bureau-chat`). */
  streamDetached(input: DetachedChatInput): AsyncIterable<string>
  /** The bytes of a workspace file, e.g. one a run returned with `done` (agent path). */
  readWorkspaceFile(agentPath: string, options?: { maxBytes?: number }): Promise<Buffer>
  /** Resolves when every run has ended (tests, shutdown). */
  idle(): Promise<void>
  /** Cancels every run and waits for them to be saved. */
  dispose(): Promise<void>
}

function selectToolsets(all: readonly Toolset[], names: readonly string[] | undefined): readonly Toolset[] {
  if (!names) return all
  const unknown = names.filter((name) => !all.some((t) => t.name === name))
  if (unknown.length > 0) {
    throw new AppError(
      'VALIDATION_FAILED',
      `Unknown toolset ${unknown.map((n) => `"${n}"`).join(', ')}. Available: ${all.map((t) => t.name).join(', ') || 'none'}.`,
    )
  }
  return all.filter((t) => names.includes(t.name))
}

/** The runs half of the chat service; `runs` is the registry it shares with the conversations half. */
export function createChatRuns(options: ChatServiceOptions, runs: ActiveRuns<ActiveRun>): ChatRuns {
  const { store, events } = options
  const approvals = createRunApprovals(options)
  /** "Always allow in this conversation" is kept with the conversation, so it survives a restart. */
  const saveGrant = async (conversationId: string, key: string) => {
    await store
      .update(
        conversationId,
        (c) => {
          c.approvedTools = withGrant(c.approvedTools, key)
        },
        { touch: false },
      )
      .catch((error) => options.logger?.warn('approval grant not saved', { key, error: String(error) }))
  }
  async function execute(run: ActiveRun, plan: TurnPlan, toolsets: readonly Toolset[]): Promise<void> {
    const refs = { userMessageId: plan.userMessageId, assistantMessageId: plan.assistantMessageId }
    const ref = { runId: run.runId, conversationId: run.conversationId, messageId: refs.assistantMessageId }
    const onEvent = (event: AgentEvent) => {
      switch (event.type) {
        case 'text':
          return events.emit('chat.delta', { ...ref, text: event.text })
        case 'step':
          return events.emit('agent.step', { ...ref, phase: event.phase, step: event.step })
        case 'question':
          return events.emit('agent.question', { ...ref, ...omitType(event) })
        case 'attachment':
          return events.emit('chat.attachment', {
            ...ref,
            messageId: refs.userMessageId,
            index: event.index,
            attachment: event.attachment,
          })
        case 'notice':
          options.logger?.info('agent notice', { message: event.message })
      }
    }
    let result: AgentResult | undefined
    let failure: string | undefined
    try {
      const conversation = await store.get(run.conversationId)
      const model = await options.model(conversation.model)
      const approve =
        run.unattended?.approve ??
        approvals.interactive(
          run.runId,
          run.conversationId,
          {
            asked: (call) => events.emit('agent.approval', { ...ref, call }),
            ended: (approvalId, outcome) => events.emit('agent.approvalEnd', { ...ref, approvalId, outcome }),
          },
          {
            stored: conversation.approvedTools ?? [],
            save: (key) => saveGrant(run.conversationId, key),
          },
        )
      const prompt = plan.prompt.trim() || 'Look at the attached files.'
      const memory = await memoryForTurn(options.memory, prompt, options.workspace().root, (error) =>
        options.logger?.warn('memories not read', { error: String(error) }),
      )
      run.agent = startAgent({
        prompt,
        ...(memory ? { memory } : {}),
        origin: { conversationId: run.conversationId, title: conversation.title },
        model,
        toolsets,
        subagents: delegatable(options.subagents?.(), toolsets),
        attachments: plan.attachments,
        history: plan.history,
        instructions: { global: options.instructions?.(), conversation: conversation.instructions },
        ...(options.timeZone ? { clock: { timeZone: options.timeZone() } } : {}),
        maxIterations: run.unattended?.maxIterations ?? options.maxIterations?.(),
        signal: run.controller.signal,
        onEvent,
        ...runEnvironment(options),
        ...(approve && { approve }),
      })
      result = await run.agent.result
    } catch (error) {
      failure = error instanceof AppError ? error.message : 'The agent stopped because of an internal error.'
      if (!(error instanceof AppError)) options.logger?.error('agent run crashed', { error: String(error) })
    }
    const files = result ? await returnedFiles(options.workspace, result.attachments) : []
    run.outcome = { result, failure, files }
    let finalMessage: ChatMessage | undefined
    try {
      const saved = await store.update(run.conversationId, (conversation) => {
        const user = conversation.messages.find((m) => m.id === refs.userMessageId)
        if (user && result && !plan.continued) user.attachments = result.received
        const index = conversation.messages.findIndex((m) => m.id === refs.assistantMessageId)
        const previous = conversation.messages[index]
        if (!previous) return
        const fresh = assistantMessageOf(previous, result, failure, files)
        finalMessage = plan.continued ? continuedMessageOf(plan.continued, fresh) : fresh
        conversation.messages[index] = finalMessage
      })
      finalMessage ??= saved.messages.find((m) => m.id === refs.assistantMessageId)
    } catch (error) {
      options.logger?.error('could not save the conversation', { error: String(error) })
    }
    const message =
      finalMessage ??
      assistantMessageOf(
        pendingAssistant(refs.assistantMessageId, refs.userMessageId),
        result,
        failure,
        files,
      )
    events.emit('agent.done', { ...ref, message })
  }

  /** Saves the plan's new messages, then starts the run after the reply (the caller needs the run id first). */
  async function start(
    conversationId: string,
    toolsets: readonly Toolset[],
    plan: TurnPlan,
    unattended?: ActiveRun['unattended'],
  ): Promise<ChatSendResult & { run: ActiveRun }> {
    await store.update(conversationId, (c) => {
      c.messages.push(...plan.added)
      if (plan.continued) {
        const answer = c.messages.find((m) => m.id === plan.assistantMessageId)
        if (answer) answer.status = 'streaming'
      }
      c.leafId = plan.leafId
    })
    const run: ActiveRun = {
      runId: randomUUID(),
      conversationId,
      controller: new AbortController(),
      agent: undefined,
      finished: Promise.resolve(),
      ...(unattended ? { unattended } : {}),
    }
    runs.start(run.runId, run, () => execute(run, plan, toolsets))
    return {
      conversationId,
      runId: run.runId,
      userMessageId: plan.userMessageId,
      assistantMessageId: plan.assistantMessageId,
      run,
    }
  }

  /** A new conversation with the prompt, run with the plan's attachments (send and unattended runs). */
  async function newTurn(
    conversation: Conversation,
    text: string,
    attachments: TurnPlan['attachments'],
  ): Promise<TurnPlan> {
    const user = pendingUser(
      text,
      attachments.map((a) => ({
        name: a.name,
        size: a.bytes.length,
        ...(a.mimeType ? { mimeType: a.mimeType } : {}),
        status: 'pending' as const,
      })),
      conversation.leafId ?? null,
    )
    const assistant = pendingAssistant(randomUUID(), user.id)
    return {
      userMessageId: user.id,
      assistantMessageId: assistant.id,
      prompt: text,
      attachments,
      history: historyOf(
        activePath({ messages: conversation.messages, leafId: conversation.leafId ?? null }),
      ),
      added: [user, assistant],
      leafId: assistant.id,
    }
  }

  return {
    async send(raw) {
      const text = raw.text ?? ''
      const attachments = (raw.attachments ?? []).map((a) => ({
        name: a.name,
        bytes: a.bytes,
        ...(a.mimeType ? { mimeType: a.mimeType } : {}),
      }))
      if (text.trim() === '' && attachments.length === 0)
        throw new AppError('VALIDATION_FAILED', 'Type a message or attach a file.')
      const toolsets = selectToolsets(toolsetList(await options.toolsets()), raw.toolsets)
      if (raw.conversationId) refuseBusy(runs, raw.conversationId)
      const conversation = raw.conversationId
        ? await store.get(raw.conversationId)
        : await store.create({
            firstMessage: text || attachments.map((a) => a.name).join(', '),
            ...(raw.model ? { model: raw.model } : {}),
          })
      const { run: _run, ...started } = await start(
        conversation.id,
        toolsets,
        await newTurn(conversation, text, attachments),
      )
      return started
    },
    async runUnattended(input) {
      const offered = selectToolsets(toolsetList(await options.toolsets()), input.toolsets)
      const toolsets = offered.filter((t) => !input.withoutToolsets?.includes(t.name))
      const conversation = await store.create({
        title: input.title,
        ...(input.model ? { model: input.model } : {}),
      })
      const attachments = (input.attachments ?? []).map((a) => ({
        name: a.name,
        bytes: a.bytes,
        ...(a.mimeType ? { mimeType: a.mimeType } : {}),
      }))
      const decisions: UnattendedDecision[] = []
      const inner = approvals.nonInteractive(autoApproveOf(input.approve) ?? 'read')
      const approve = unattendedGate(
        input.approve,
        input.approve === 'none' ? denyAsks(options) : inner,
        (d) => decisions.push(d),
      )
      const { run } = await start(
        conversation.id,
        toolsets,
        await newTurn(conversation, input.prompt, attachments),
        {
          approve,
          maxIterations: input.maxIterations,
        },
      )
      let deadlineHit = false
      const deadline = setTimeout(() => {
        deadlineHit = true
        run.controller.abort()
      }, input.deadlineMs)
      const stop = () => run.controller.abort()
      input.signal?.addEventListener('abort', stop, { once: true })
      if (input.signal?.aborted) stop()
      try {
        await run.finished
      } finally {
        clearTimeout(deadline)
        input.signal?.removeEventListener('abort', stop)
      }
      const { result, failure, files } = run.outcome ?? { result: undefined, failure: undefined, files: [] }
      const usage = result?.usage ?? { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 }
      const base = {
        conversationId: conversation.id,
        decisions,
        usage: {
          inputTokens: usage.inputTokens,
          outputTokens: usage.outputTokens,
          cachedInputTokens: usage.cachedInputTokens,
        },
        files: files.map((f) => f.agentPath),
        steps: result?.steps.length ?? 0,
      }
      if (deadlineHit) {
        const error = `The run passed its deadline (${Math.round(input.deadlineMs / 1000)} s) and was stopped.`
        return { ...base, status: 'failed', message: error, error }
      }
      if (!result) {
        const error = failure ?? 'The agent stopped unexpectedly.'
        return { ...base, status: 'failed', message: error, error }
      }
      if (result.status === 'cancelled')
        return { ...base, status: 'cancelled', message: 'The run was stopped.' }
      if (result.status === 'budget') {
        const error = `The run used its step budget (${input.maxIterations} steps) without finishing.`
        return { ...base, status: 'failed', message: result.message || error, error }
      }
      if (result.status === 'failed' || result.status === 'repeated_failure') {
        const error = result.error ?? result.message
        return { ...base, status: 'failed', message: result.message || error, error }
      }
      const answer = result.message || result.text
      if (!input.deliver) return { ...base, status: 'ok', message: answer }
      // The result sent on (by e-mail): one more call of the run, through the same gate.
      const call = input.deliver(answer)
      // Every toolset of the host: the delivery's toolset need not be among those the model was offered.
      const session = createToolSession({
        toolsets: toolsetList(await options.toolsets()),
        workspace: () => options.workspace(),
      })
      try {
        const sent = await invoke(session, call.name, call.arguments, {
          approve,
          ...(input.signal ? { signal: input.signal } : {}),
        })
        const delivery = sent.ok
          ? { ok: true, denied: false, message: JSON.stringify(sent.value).slice(0, 2000) }
          : { ok: false, denied: sent.stage === 'denied', message: sent.error }
        return { ...base, status: 'ok', message: answer, delivery }
      } finally {
        await session.dispose()
      }
    },
    async regenerate(ref) {
      refuseBusy(runs, ref.conversationId)
      const conversation = await store.get(ref.conversationId)
      const plan = await regeneratePlan(conversation, ref.messageId, options.workspace())
      return start(conversation.id, toolsetList(await options.toolsets()), plan)
    },
    async edit(ref) {
      refuseBusy(runs, ref.conversationId)
      const conversation = await store.get(ref.conversationId)
      const plan = await editPlan(conversation, ref.messageId, ref.text, options.workspace())
      return start(conversation.id, toolsetList(await options.toolsets()), plan)
    },
    async continue(ref) {
      refuseBusy(runs, ref.conversationId)
      const conversation = await store.get(ref.conversationId)
      return start(
        conversation.id,
        toolsetList(await options.toolsets()),
        continuePlan(conversation, ref.messageId),
      )
    },
    cancel: (runId) => runs.cancel(runId),
    answer(runId, input, sessionId) {
      return runs.get(runId)?.agent?.answer(input, sessionId) ?? false
    },
    approve: (runId, approvalId, decision, text) => approvals.answer(runId, approvalId, decision, text),
    async runDetached(input) {
      const offered = selectToolsets(toolsetList(await options.toolsets()), input.toolsets)
      // A caller without the memory permission neither reads nor writes the user's memories.
      const toolsets = input.useMemory ? offered : offered.filter((t) => t.name !== 'memory')
      return runDetached(options, toolsets, input, approvals.nonInteractive(input.autoApprove))
    },
    streamDetached: (input) => streamDetached(options, input),
    readWorkspaceFile: (agentPath, read) => options.workspace().readFile(agentPath, read),
    idle: () => runs.idle(),
    dispose: () => runs.dispose(),
  }
}

/** Level `none`: every call the settings would ask about is denied; what they allow still runs. */
function denyAsks(deps: ChatServiceOptions): ApprovalGate | undefined {
  const settings = deps.approvals
  if (!settings) return undefined
  return async (request) => {
    const policy = policyFor(settings(), request)
    if (policy === 'allow') return { allowed: true, by: 'policy' }
    return {
      allowed: false,
      by: policy === 'deny' ? 'policy' : 'non-interactive',
      reason:
        'Denied: this automation runs unattended at approval level "none"; calls that need approval are not run.',
    }
  }
}

function omitType<T extends { type: string }>(event: T): Omit<T, 'type'> {
  const { type: _type, ...rest } = event
  return rest
}

async function returnedFiles(
  workspace: () => Workspace,
  paths: readonly string[],
): Promise<ChatMessage['files']> {
  const files: ChatMessage['files'] = []
  for (const agentPath of paths) {
    const name = agentPath.split('/').pop() || agentPath
    try {
      const info = await workspace().stat(agentPath)
      files.push({ agentPath: info.path, name, ...(info.size !== undefined ? { size: info.size } : {}) })
    } catch {
      files.push({ agentPath, name })
    }
  }
  return files
}
