import { AppError } from '../../../shared/errors'
import type { AgentStep } from '../../../shared/ipc'
import type { AgentAttachment, AgentUsage, ChatService } from '../../agent'
import type { Logger } from '../../platform'
import { BridgeError } from '../errors'
import type { FileStore, StoredFile } from '../files/fileStore'
import type { ModelProfile } from '../models/modelCatalog'
import type { FinishReason } from './chunks'
import type { Task } from './messagesToTask'

/** Where a run's output goes as it happens (the SSE writer, or a collector for non-stream). */
export interface CompletionSink {
  text(text: string): void
  step(phase: 'started' | 'finished', step: AgentStep): void
  notice(message: string): void
}

/** A file the agent returned with `done`: stored for download, or why it could not be. */
export interface ReturnedFile {
  agentPath: string
  name: string
  file?: StoredFile
  error?: string
}

export interface CompletionOutcome {
  status: string
  finishReason: FinishReason
  usage: AgentUsage
  steps: AgentStep[]
  returned: ReturnedFile[]
  /** Set when the model failed: the request gets this error instead of an answer. */
  error?: BridgeError
}

export interface CompletionDeps {
  chat: Pick<ChatService, 'runDetached' | 'streamDetached' | 'readWorkspaceFile'>
  files: FileStore
  owner: string
  maxFileBytes: number
  /** The token's setting (`bridge.memoryTokens`): whether its requests get the user's memories. */
  useMemory?: boolean
  logger?: Logger
}

const ZERO: AgentUsage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 }

function modelFailure(message: string): BridgeError {
  // Not retried by OpenAI clients (x-should-retry): the agent may already have changed files.
  return new BridgeError(502, `The model could not answer: ${message}`, {
    type: 'server_error',
    code: 'model_error',
    headers: { 'x-should-retry': 'false' },
  })
}

function failureOf(error: unknown, logger: Logger | undefined): BridgeError {
  if (error instanceof BridgeError) return error
  if (error instanceof AppError)
    return error.code === 'VALIDATION_FAILED'
      ? new BridgeError(400, error.message)
      : modelFailure(error.message)
  logger?.error('bridge run crashed', { error: String(error) })
  return new BridgeError(500, 'The agent stopped because of an internal error.', {
    code: 'internal_error',
    headers: { 'x-should-retry': 'false' },
  })
}

async function storeReturned(deps: CompletionDeps, paths: readonly string[]): Promise<ReturnedFile[]> {
  const returned: ReturnedFile[] = []
  for (const agentPath of paths) {
    const name = agentPath.split('/').filter(Boolean).pop() ?? agentPath
    try {
      const bytes = await deps.chat.readWorkspaceFile(agentPath, { maxBytes: deps.maxFileBytes })
      const file = await deps.files.create({
        filename: name,
        purpose: 'assistants_output',
        bytes,
        owner: deps.owner,
      })
      returned.push({ agentPath, name, file })
    } catch (error) {
      returned.push({
        agentPath,
        name,
        error:
          error instanceof AppError || error instanceof BridgeError ? error.message : 'could not be read',
      })
    }
  }
  return returned
}

async function runChat(
  deps: CompletionDeps,
  task: Task,
  attachments: AgentAttachment[],
  signal: AbortSignal,
  sink: CompletionSink,
): Promise<CompletionOutcome> {
  let usage: AgentUsage = ZERO
  const outcome = (status: string, error?: BridgeError): CompletionOutcome => ({
    status,
    finishReason: 'stop',
    usage,
    steps: [],
    returned: [],
    ...(error ? { error } : {}),
  })
  try {
    const chunks = deps.chat.streamDetached({
      prompt: task.prompt,
      history: task.history,
      attachments,
      signal,
      onEvent: (event) => {
        if (event.type === 'notice') sink.notice(event.message)
      },
      onUsage: (latest) => {
        usage = {
          inputTokens: latest.inputTokens,
          outputTokens: latest.outputTokens,
          cachedInputTokens: latest.cachedInputTokens ?? 0,
        }
      },
    })
    for await (const text of chunks) sink.text(text)
  } catch (error) {
    if (!signal.aborted) return outcome('failed', failureOf(error, deps.logger))
  }
  return outcome(signal.aborted ? 'cancelled' : 'answered')
}

async function runAgentProfile(
  deps: CompletionDeps,
  toolsets: string[] | undefined,
  task: Task,
  attachments: AgentAttachment[],
  signal: AbortSignal,
  sink: CompletionSink,
): Promise<CompletionOutcome> {
  try {
    const result = await deps.chat.runDetached({
      prompt: task.prompt,
      history: task.history,
      attachments,
      ...(toolsets ? { toolsets } : {}),
      useMemory: deps.useMemory === true,
      signal,
      onEvent: (event) => {
        if (event.type === 'text') sink.text(event.text)
        else if (event.type === 'step') sink.step(event.phase, event.step)
        else if (event.type === 'notice') sink.notice(event.message)
      },
    })
    const returned = signal.aborted ? [] : await storeReturned(deps, result.attachments)
    return {
      status: result.status,
      finishReason: result.status === 'budget' ? 'length' : 'stop',
      usage: result.usage,
      steps: result.steps,
      returned,
      ...(result.status === 'failed' ? { error: modelFailure(result.error ?? result.message) } : {}),
    }
  } catch (error) {
    return {
      status: 'failed',
      finishReason: 'stop',
      usage: ZERO,
      steps: [],
      returned: [],
      error: failureOf(error, deps.logger),
    }
  }
}

/** Runs one chat completion on the profile the model id names. Never throws: failures come back in `error`. */
export function runCompletion(
  deps: CompletionDeps,
  profile: ModelProfile,
  task: Task,
  attachments: AgentAttachment[],
  signal: AbortSignal,
  sink: CompletionSink,
): Promise<CompletionOutcome> {
  if (profile.kind === 'chat') return runChat(deps, task, attachments, signal, sink)
  return runAgentProfile(
    deps,
    profile.kind === 'toolset' ? [profile.toolset] : undefined,
    task,
    attachments,
    signal,
    sink,
  )
}

/** The links appended to the answer: one line per returned file. */
export function filesTrailer(returned: readonly ReturnedFile[], origin: string, hasText: boolean): string {
  if (returned.length === 0) return ''
  const lines = returned.map((r) =>
    r.file
      ? `- [${r.name}](${origin}/v1/files/${r.file.id}/content)`
      : `- ${r.name} (not attached: ${r.error})`,
  )
  return `${hasText ? '\n\n' : ''}Files:\n${lines.join('\n')}`
}
