import { AppError, isAppError } from '../../../shared/errors'
import { failureInfo, IncompleteReplyError } from '../errors/failureInfo'
import { classifyFailure } from '../errors/toAppError'
import type { ChatRequest, ChatResult, LlmClient, PublicProvider, StreamEvent } from '../types'
import { AttemptSignal } from './attemptSignal'
import type { ResolvedClientOptions } from './clientOptions'
import type { ProviderDriver } from './driver'
import { ResultAssembler } from './resultAssembler'
import { backoffMs } from './retryAfter'

/** Failures that, after part of the answer arrived, mean the connection went away mid-answer. */
const CUT_OFF_KINDS: ReadonlySet<string> = new Set(['connection', 'incomplete', 'malformed'])

/** Part of the answer is on screen: say how much arrived instead of "cannot reach". */
function cutOffError(provider: PublicProvider, text: string): AppError {
  const words = text.split(/\s+/).filter(Boolean).length
  return new AppError(
    'UNAVAILABLE',
    `The connection to ${provider.name} was lost after ${words} word${words === 1 ? '' : 's'} of the answer. What arrived is kept; send the message again to retry.`,
  )
}

/**
 * Wraps a protocol driver with what every provider needs: inactivity timeout, cancellation,
 * retries with backoff (honouring Retry-After) while nothing was streamed yet, and safe errors.
 */
export function createRuntimeClient(
  provider: PublicProvider,
  driver: ProviderDriver,
  options: ResolvedClientOptions,
  secrets: ReadonlyArray<string | undefined>,
): LlmClient {
  const log = options.logger?.child(`llm:${provider.id}`)

  async function* stream(request: ChatRequest): AsyncGenerator<StreamEvent> {
    for (let attempt = 0; ; attempt++) {
      const attemptSignal = new AttemptSignal(request.signal, options.timeoutMs)
      let yielded = false
      let streamedText = ''
      try {
        const events = await driver.open(request, attemptSignal.signal)
        attemptSignal.touch()
        const assembler = new ResultAssembler(provider.model)
        for await (const event of events) {
          attemptSignal.touch()
          assembler.add(event)
          if (event.type === 'finish') continue
          yielded = true
          if (event.type === 'text') streamedText += event.text
          yield event
        }
        if (!assembler.finished) throw new IncompleteReplyError()
        yield { type: 'done', result: assembler.result() }
        return
      } catch (error) {
        if (isAppError(error) && !attemptSignal.cancelled) throw error
        const info = failureInfo(error, {
          cancelled: attemptSignal.cancelled,
          timedOut: attemptSignal.timedOut,
        })
        const failure = classifyFailure(info, {
          provider,
          secrets,
          timeoutMs: options.timeoutMs,
          now: options.now,
          cause: error,
        })
        if (yielded && CUT_OFF_KINDS.has(info.kind)) {
          log?.warn('stream cut off', { kind: info.kind, attempt })
          throw cutOffError(provider, streamedText)
        }
        const canRetry = failure.retryable && !yielded && attempt < options.maxRetries
        const wait = failure.retryAfterMs ?? backoffMs(attempt, options.backoffBaseMs, 30_000, options.random)
        if (!canRetry || wait > options.retryAfterCapMs) {
          log?.warn('request failed', {
            code: failure.error.code,
            status: info.status,
            kind: info.kind,
            attempt,
          })
          throw failure.error
        }
        log?.info('retrying', { status: info.status, kind: info.kind, attempt: attempt + 1, waitMs: wait })
        await sleepOrCancel(options, wait, request.signal, failure.error)
      } finally {
        attemptSignal.close()
      }
    }
  }

  return {
    provider,
    stream,
    async chat(request: ChatRequest): Promise<ChatResult> {
      for await (const event of stream(request)) if (event.type === 'done') return event.result
      throw new IncompleteReplyError()
    },
    contextWindow: (signal) => driver.contextWindow(signal),
  }
}

async function sleepOrCancel(
  options: ResolvedClientOptions,
  ms: number,
  signal: AbortSignal | undefined,
  lastError: AppError,
): Promise<void> {
  try {
    await options.sleep(ms, signal)
  } catch {
    if (signal?.aborted) throw new AppError('CANCELLED', 'The request was cancelled while waiting to retry.')
    throw lastError
  }
}
