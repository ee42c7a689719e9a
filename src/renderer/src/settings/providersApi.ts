import type {
  CustomProviderInput,
  ProviderDraft,
  ProviderModelList,
  ProviderSummary,
} from '../../../shared/ipc'
import { bureau } from '../ipc/bureauClient'

export type ProviderInfo = Pick<ProviderSummary, 'id' | 'name' | 'baseUrl' | 'model'> &
  Partial<Omit<ProviderSummary, 'id' | 'name' | 'baseUrl' | 'model'>>

export interface ConnectionTest {
  ok: boolean
  latencyMs: number
  model: string
  message?: string | undefined
}

export function listProviders(): Promise<ProviderInfo[]> {
  return bureau.invoke('providers.list')
}

/** Tests a provider; `draft` holds what is on screen and not saved yet (empty fields: the saved values). */
export async function testProvider(id: string, draft?: ProviderDraft): Promise<ConnectionTest> {
  const r = await bureau.invoke('providers.test', { id, ...(draft && { draft }) })
  return { ok: r.ok, latencyMs: r.latencyMs, model: r.model, message: r.error?.message ?? undefined }
}

/** The models the provider lists at `/models` (base URL and key on screen when given). */
export function listProviderModels(
  id: string | undefined,
  draft?: ProviderDraft,
): Promise<ProviderModelList> {
  return bureau.invoke('providers.listModels', { ...(id && { id }), ...(draft && { draft }) })
}

export function saveCustomProvider(input: CustomProviderInput): Promise<ProviderSummary> {
  return bureau.invoke('providers.saveCustom', input)
}

export function removeCustomProvider(id: string): Promise<{ id: string; removed: true }> {
  return bureau.invoke('providers.removeCustom', { id })
}
