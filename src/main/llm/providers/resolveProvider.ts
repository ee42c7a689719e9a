import { AppError } from '../../../shared/errors'
import type { InteractionModeSetting, PublicProvider, ResolvedProvider } from '../types'
import { DEFAULT_PROVIDER_ID } from './builtinPresets'
import type { EnvOverrides } from './envOverrides'
import type { ProviderPreset } from './presetSchema'
import {
  apiKeySecretName,
  type ProviderSettingsOverride,
  type ProviderSettingsSource,
} from './settingsSource'

export function applyDefaults(preset: ProviderPreset): PublicProvider {
  return {
    id: preset.id,
    name: preset.name,
    kind: preset.kind,
    baseUrl: preset.baseUrl.replace(/\/+$/, ''),
    model: preset.model,
    apiKeyEnv: preset.apiKeyEnv,
    contextWindow: preset.contextWindow,
    maxOutputTokens: preset.maxOutputTokens,
    interactionMode: preset.interactionMode,
    cacheType: preset.cacheType ?? 'prefix',
    supportsTools: preset.supportsTools ?? true,
    supportsVision: preset.supportsVision ?? false,
    headers: { ...preset.headers },
    temperature: preset.temperature,
  }
}

/** The active provider: environment, then settings, then `ollama` (or the first provider). */
export function activeProviderId(
  providers: readonly ProviderPreset[],
  env: EnvOverrides,
  settingsId: string | undefined,
): string {
  const wanted = env.providerId ?? settingsId
  if (wanted !== undefined) return wanted
  return providers.some((p) => p.id === DEFAULT_PROVIDER_ID) ? DEFAULT_PROVIDER_ID : (providers[0]?.id ?? '')
}

function mode(
  current: InteractionModeSetting | undefined,
  override: InteractionModeSetting | 'auto' | undefined,
): InteractionModeSetting | undefined {
  if (override === undefined) return current
  return override === 'auto' ? undefined : override
}

function withOverride(
  provider: PublicProvider,
  override: ProviderSettingsOverride | undefined,
): PublicProvider {
  if (!override) return provider
  return {
    ...provider,
    baseUrl: override.baseUrl?.replace(/\/+$/, '') || provider.baseUrl,
    model: override.model || provider.model,
    contextWindow: override.contextWindow ?? provider.contextWindow,
    interactionMode: mode(provider.interactionMode, override.interactionMode),
  }
}

export interface ResolveInput {
  providers: readonly ProviderPreset[]
  settings: ProviderSettingsSource
  env: EnvOverrides
  processEnv: NodeJS.ProcessEnv
  /** Which provider; default the active one. */
  id?: string | undefined
}

export function unknownProvider(id: string, providers: readonly ProviderPreset[]): AppError {
  return new AppError(
    'NOT_FOUND',
    `Unknown provider "${id}". Known providers: ${providers.map((p) => p.id).join(', ')}.`,
  )
}

/**
 * Merges preset, user file (already in `providers`), settings and environment, in that order of
 * increasing priority, and finds the key: BUREAU_API_KEY (active provider), the provider's
 * `apiKeyEnv`, then the settings store.
 */
export async function resolveProvider(input: ResolveInput): Promise<ResolvedProvider & { active: boolean }> {
  const active = await input.settings.active()
  const activeId = activeProviderId(input.providers, input.env, active.providerId)
  const id = input.id ?? activeId
  const preset = input.providers.find((p) => p.id === id)
  if (!preset) throw unknownProvider(id, input.providers)
  const isActive = id === activeId

  let provider = withOverride(applyDefaults(preset), await input.settings.override(id))
  if (isActive && active.model) provider = { ...provider, model: active.model }
  if (isActive) {
    provider = withOverride(provider, {
      baseUrl: input.env.baseUrl,
      model: input.env.model,
      contextWindow: input.env.contextWindow,
      interactionMode: input.env.interactionMode,
    })
  }
  const fromEnv = provider.apiKeyEnv ? input.processEnv[provider.apiKeyEnv]?.trim() : undefined
  const fromBureauEnv = isActive ? input.env.apiKey : undefined
  const apiKey =
    fromBureauEnv || fromEnv || (await input.settings.getSecret(apiKeySecretName(id))) || undefined
  // Error texts name the variable a rejected key came from (a stored key is replaced in Settings).
  const apiKeyFrom = fromBureauEnv ? 'BUREAU_API_KEY' : fromEnv ? provider.apiKeyEnv : undefined
  return { ...provider, apiKey, ...(apiKeyFrom && { apiKeyFrom }), active: isActive }
}
