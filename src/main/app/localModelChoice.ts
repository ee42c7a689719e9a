import { AppError } from '../../shared/errors'
import type { ProviderService } from '../llm'
import type { SettingsService } from '../settings'

/** The installed model the active provider runs, if the active provider is a built-in local one. */
export async function activeLocalModel(providers: ProviderService): Promise<string | undefined> {
  try {
    const active = await providers.resolve()
    return active.kind === 'local' ? active.model : undefined
  } catch {
    return undefined
  }
}

/** Makes `model` the local provider's model and that provider the active one. */
export async function useLocalModel(
  providers: ProviderService,
  settings: SettingsService,
  model: string,
): Promise<{ providerId: string; model: string }> {
  const local = (await providers.list()).find((p) => p.kind === 'local')
  if (!local) throw new AppError('NOT_FOUND', 'No provider of kind "local" in providers.json.')
  await settings.update({
    provider: { active: local.id, model: null },
    providers: { [local.id]: { model } },
  })
  return { providerId: local.id, model }
}
