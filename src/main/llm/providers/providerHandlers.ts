import type { CustomProviderInput, ProviderDraft } from '../../../shared/ipc/routes/providers'
import type { ProviderService } from './providerService'

/** The `providers.*` IPC routes (Settings page). */
export function providerHandlers(service: ProviderService) {
  return {
    'providers.list': () => service.list(),
    'providers.test': (
      input: { id?: string | undefined; draft?: ProviderDraft | undefined },
      context: { signal?: AbortSignal },
    ) => service.test(input.id, context.signal, input.draft),
    'providers.listModels': (
      input: { id?: string | undefined; draft?: ProviderDraft | undefined },
      context: { signal?: AbortSignal },
    ) => service.listModels(input.id, context.signal, input.draft),
    'providers.saveCustom': (input: CustomProviderInput) => service.saveCustom(input),
    'providers.removeCustom': (input: { id: string }) => service.removeCustom(input.id),
  }
}
