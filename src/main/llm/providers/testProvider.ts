import { AppError, isAppError } from '../../../shared/errors'
import type { ProviderTestResult } from '../../../shared/ipc/routes/providers'
import type { LlmClient } from '../types'

const PROMPT = 'Reply with the single word OK.'

/** One short request; reports the round-trip time and the start of the answer, or the error. */
export async function testProvider(client: LlmClient, signal?: AbortSignal): Promise<ProviderTestResult> {
  const { provider } = client
  const started = performance.now()
  try {
    const result = await client.chat({
      messages: [{ role: 'user', content: PROMPT }],
      maxOutputTokens: 64,
      ...(signal && { signal }),
    })
    const reply = result.message.content.replace(/\s+/g, ' ').trim()
    return {
      id: provider.id,
      ok: true,
      latencyMs: Math.round(performance.now() - started),
      model: result.model || provider.model,
      reply: reply.length > 80 ? `${reply.slice(0, 79)}…` : reply,
      error: null,
    }
  } catch (error) {
    const appError = isAppError(error)
      ? error
      : new AppError('INTERNAL', 'The test request failed unexpectedly.', { cause: error })
    return {
      id: provider.id,
      ok: false,
      latencyMs: Math.round(performance.now() - started),
      model: provider.model,
      reply: null,
      error: { code: appError.code, message: appError.message },
    }
  }
}
