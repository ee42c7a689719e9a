import type { InstalledModelSummary, ModelChoiceGroup, ProviderSummary } from '../../shared/ipc'
import { type ProviderService, probeOllama } from '../llm'

export interface ModelChoiceSources {
  providers: ProviderService
  /** The installed GGUF models of the model manager. */
  localModels: () => Promise<InstalledModelSummary[]>
  fetch?: typeof fetch
}

function unique(names: readonly string[]): string[] {
  return [...new Set(names.filter((n) => n.trim() !== ''))]
}

async function groupOf(provider: ProviderSummary, sources: ModelChoiceSources): Promise<ModelChoiceGroup> {
  const base = {
    providerId: provider.id,
    name: provider.name,
    kind: provider.kind,
    defaultModel: provider.model,
    active: provider.active,
  }
  if (provider.kind === 'ollama') {
    const status = await probeOllama(provider.baseUrl, {
      timeoutMs: 1500,
      ...(sources.fetch && { fetch: sources.fetch }),
    })
    if (!status.running) return { ...base, models: [provider.model], usable: false, reason: status.error }
    const installed = status.models.map((m) => m.name)
    return {
      ...base,
      models: unique([...installed, provider.model]),
      usable: installed.length > 0,
      reason: installed.length > 0 ? null : 'Ollama has no model installed.',
    }
  }
  if (provider.kind === 'local') {
    const installed = (await sources.localModels()).map((m) => m.id)
    return {
      ...base,
      models: unique([provider.model, ...installed]).filter((m) => installed.includes(m)),
      usable: installed.length > 0,
      reason: installed.length > 0 ? null : 'No local model is installed (Settings → Model provider).',
    }
  }
  const missingKey = provider.needsKey && !provider.keySet
  return {
    ...base,
    models: [provider.model],
    usable: !missingKey,
    reason: missingKey ? `No API key (${provider.apiKeyEnv ?? `providers.${provider.id}.apiKey`}).` : null,
  }
}

/** Every provider with the models it can run here, for the chat's model picker. */
export async function modelChoices(sources: ModelChoiceSources): Promise<ModelChoiceGroup[]> {
  const providers = await sources.providers.list()
  return Promise.all(providers.map((provider) => groupOf(provider, sources)))
}
