import { z } from 'zod'
import type { ProviderModelList } from '../../../shared/ipc/routes/providers'
import { displayUrl } from '../errors/redactSecrets'
import type { ResolvedProvider } from '../types'

const ModelsAnswer = z.object({ data: z.array(z.object({ id: z.string().min(1) }).loose()) }).loose()

/** What one list request may take: a model server on this machine answers at once, a gateway quickly. */
const TIMEOUT_MS = 10_000

/**
 * The models an OpenAI-compatible server lists at `GET <base URL>/models`, sorted. Never throws:
 * a failure is a sentence in `error` and the Settings model field stays free text.
 */
export async function listProviderModels(
  provider: Pick<ResolvedProvider, 'id' | 'kind' | 'baseUrl' | 'apiKey' | 'headers'>,
  signal?: AbortSignal,
): Promise<ProviderModelList> {
  const fail = (error: string): ProviderModelList => ({ id: provider.id, models: [], error })
  if (provider.kind !== 'openai-compatible')
    return fail('This provider does not list its models at /models; type the model name.')
  const url = `${provider.baseUrl.replace(/\/+$/, '')}/models`
  const timeout = AbortSignal.timeout(TIMEOUT_MS)
  let response: Response
  try {
    response = await fetch(url, {
      headers: {
        accept: 'application/json',
        ...provider.headers,
        ...(provider.apiKey && { authorization: `Bearer ${provider.apiKey}` }),
      },
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    })
  } catch {
    return fail(
      timeout.aborted
        ? `${displayUrl(url)} did not answer within ${TIMEOUT_MS / 1000} s.`
        : `Cannot reach ${displayUrl(url)}. Is the server running and the base URL right?`,
    )
  }
  if (response.status === 401 || response.status === 403)
    return fail(`The server refused the model list (${response.status}): check the API key.`)
  if (!response.ok) return fail(`The server answered ${response.status} for /models; type the model name.`)
  let body: unknown
  try {
    body = await response.json()
  } catch {
    return fail('The server answered /models with something that is not JSON; type the model name.')
  }
  const parsed = ModelsAnswer.safeParse(body)
  if (!parsed.success) return fail('The server lists no models in the OpenAI format; type the model name.')
  const models = [...new Set(parsed.data.data.map((m) => m.id))].sort((a, b) => a.localeCompare(b))
  return { id: provider.id, models, error: null }
}
