import { useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import type {
  CustomProviderInput,
  IpcClient,
  ProviderDraft,
  ProviderModelList,
  ProviderSummary,
} from '../../../shared/ipc'
import { useBureau } from '../ipc/BureauProvider'
import { queryKeys } from '../ipc/queryKeys'

export type ProviderInfo = Pick<ProviderSummary, 'id' | 'name' | 'baseUrl' | 'model'> &
  Partial<Omit<ProviderSummary, 'id' | 'name' | 'baseUrl' | 'model'>>

export interface ConnectionTest {
  ok: boolean
  latencyMs: number
  model: string
  message?: string | undefined
}

/** The configured providers. */
export function useProviders(options: { retry?: boolean } = {}) {
  const bureau = useBureau()
  return useQuery({ queryKey: queryKeys.providers(), queryFn: () => listProviders(bureau), ...options })
}

/** Every provider's models, grouped for the chat's model picker. */
export function useProviderModels() {
  const bureau = useBureau()
  return useQuery({
    queryKey: queryKeys.providerModels(),
    queryFn: () => bureau.invoke('providers.models'),
    retry: false,
    staleTime: 30_000,
  })
}

/** `listProviders` and `testProvider` bound to the context's client, for event handlers. */
export function useProvidersApi() {
  const bureau = useBureau()
  return useMemo(
    () => ({
      listProviders: () => listProviders(bureau),
      testProvider: (id: string, draft?: ProviderDraft) => testProvider(bureau, id, draft),
      /** The models the provider lists at `/models`; without an id, a server not saved yet (the draft only). */
      listProviderModels: (id: string | undefined, draft?: ProviderDraft): Promise<ProviderModelList> =>
        bureau.invoke('providers.listModels', { ...(id && { id }), ...(draft && { draft }) }),
      saveCustomProvider: (input: CustomProviderInput): Promise<ProviderSummary> =>
        bureau.invoke('providers.saveCustom', input),
      removeCustomProvider: (id: string) => bureau.invoke('providers.removeCustom', { id }),
    }),
    [bureau],
  )
}

function listProviders(bureau: IpcClient): Promise<ProviderInfo[]> {
  return bureau.invoke('providers.list')
}

/** Tests a provider; `draft` holds what is on screen and not saved yet (empty fields: the saved values). */
async function testProvider(bureau: IpcClient, id: string, draft?: ProviderDraft): Promise<ConnectionTest> {
  const r = await bureau.invoke('providers.test', { id, ...(draft && { draft }) })
  return { ok: r.ok, latencyMs: r.latencyMs, model: r.model, message: r.error?.message ?? undefined }
}
