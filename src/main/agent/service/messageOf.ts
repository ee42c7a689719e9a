import type { ChatMessage } from '../../../shared/ipc'
import type { AgentResult } from '../types'

const STATUS: Record<AgentResult['status'], ChatMessage['status']> = {
  done: 'done',
  answered: 'done',
  budget: 'done',
  repeated_failure: 'error',
  failed: 'error',
  cancelled: 'cancelled',
}

/** The stored assistant message for a finished run (or for a run that crashed before it had a result). */
export function assistantMessageOf(
  pending: ChatMessage,
  result: AgentResult | undefined,
  crash: string | undefined,
  files: ChatMessage['files'],
): ChatMessage {
  if (!result) return { ...pending, status: 'error', error: crash ?? 'The agent stopped unexpectedly.' }
  const message: ChatMessage = {
    ...pending,
    text: result.text || (result.status === 'failed' ? '' : result.message),
    status: STATUS[result.status],
    steps: result.steps,
    files,
    usage: {
      inputTokens: result.usage.inputTokens,
      outputTokens: result.usage.outputTokens,
      cachedInputTokens: result.usage.cachedInputTokens,
    },
  }
  if (result.error) message.error = result.error
  return message
}

/** A continued answer: what it had before, then what the new run added (status and usage from the run). */
export function continuedMessageOf(
  before: Pick<ChatMessage, 'text' | 'steps' | 'files'>,
  fresh: ChatMessage,
): ChatMessage {
  const files = [
    ...before.files,
    ...fresh.files.filter((f) => !before.files.some((b) => b.agentPath === f.agentPath)),
  ]
  return { ...fresh, text: before.text + fresh.text, steps: [...before.steps, ...fresh.steps], files }
}
