import type { ProviderDraft } from '../../../shared/ipc/routes/providers'
import type { ProviderService } from './providerService'

/** The `providers.*` IPC routes (Settings page). */
export function providerHandlers(service: ProviderService) {
  return {
    'providers.list': () => service.list(),
    'providers.test': (
      input: { id?: string | undefined; draft?: ProviderDraft | undefined },
      context: { signal?: AbortSignal },
    ) => service.test(input.id, context.signal, input.draft),
  }
}
