import type { InteractionModeSetting } from '../types'

type MaybePromise<T> = T | Promise<T>

/** What the Settings page can change per provider (per-provider overrides). */
export interface ProviderSettingsOverride {
  baseUrl?: string | undefined
  model?: string | undefined
  contextWindow?: number | undefined
  /** `auto` (or undefined) means: choose by context window. */
  interactionMode?: InteractionModeSetting | 'auto' | undefined
}

/**
 * The slice of the settings service the provider layer reads. The composition root fills it from the
 * settings service; tests and the CLI can use `staticSettingsSource`.
 */
export interface ProviderSettingsSource {
  /** The active provider id and (optionally) a model chosen for it. */
  active(): MaybePromise<{ providerId?: string | undefined; model?: string | undefined }>
  override(providerId: string): MaybePromise<ProviderSettingsOverride | undefined>
  /** A stored secret by dotted name, e.g. `providers.deepseek.apiKey`. */
  getSecret(name: string): MaybePromise<string | undefined>
}

export interface StaticSettings {
  providerId?: string
  model?: string
  overrides?: Record<string, ProviderSettingsOverride>
  secrets?: Record<string, string>
}

/** A fixed settings source: for tests, and for the CLI until the settings service is wired in. */
export function staticSettingsSource(settings: StaticSettings = {}): ProviderSettingsSource {
  return {
    active: () => ({ providerId: settings.providerId, model: settings.model }),
    override: (id) => settings.overrides?.[id],
    getSecret: (name) => settings.secrets?.[name],
  }
}

export function apiKeySecretName(providerId: string): string {
  return `providers.${providerId}.apiKey`
}
