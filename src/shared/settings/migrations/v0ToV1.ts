import { isPlainObject, type JsonObject } from '../mergePatch'

/**
 * Version 0 is the pre-release format (the seeds' `config.json`): one flat object without
 * `schemaVersion`, e.g. `{"provider": "deepseek", "model": "deepseek-chat", "apiKey": "sk-…",
 * "workspace": "/home/me/Bureau", "anonymize": ["ACME"], "attachmentBudget": 20000, "theme": "dark"}`.
 * Version 1 groups those keys into sections. Provider-specific keys (base URL, context window, mode,
 * API key) become the active provider's override; a plaintext `apiKey` lands on its secret path
 * `providers.<id>.apiKey`, which the store moves into the encrypted vault. Unknown keys stay.
 */
const v0Keys: Record<string, string> = {
  provider: 'provider.active',
  model: 'provider.model',
  workspace: 'workspace.folder',
  workspaceDir: 'workspace.folder',
  attachmentBudget: 'attachments.budgetChars',
  maxAttachmentChars: 'attachments.budgetChars',
  theme: 'ui.theme',
  toolsDir: 'tools.extraFolder',
  toolsWatchDebounceMs: 'tools.watchDebounceMs',
  browser: 'browser.mode',
  browserExecutable: 'browser.executablePath',
  browserProfile: 'browser.profileDir',
  cdpUrl: 'browser.cdpEndpoint',
  ttsEngine: 'voice.tts.engine',
  voice: 'voice.tts.voice',
  speechRate: 'voice.tts.rate',
  autoSpeak: 'voice.autoSpeak',
  smtpPassword: 'email.smtpPassword',
  imapPassword: 'email.imapPassword',
}

/** Keys that belonged to whichever provider was active. */
const v0ProviderKeys: Record<string, string> = {
  baseUrl: 'baseUrl',
  base_url: 'baseUrl',
  contextWindow: 'contextWindow',
  context_window: 'contextWindow',
  interactionMode: 'interactionMode',
  apiKey: 'apiKey',
  api_key: 'apiKey',
}

function setPath(target: JsonObject, path: string, value: unknown): void {
  const keys = path.split('.')
  const last = keys.pop() as string
  let node = target
  for (const key of keys) {
    const child = node[key]
    node[key] = isPlainObject(child) ? child : {}
    node = node[key] as JsonObject
  }
  node[last] = value
}

function anonymizationOf(source: JsonObject): JsonObject | undefined {
  const { anonymize, anonymizeTerms } = source
  const terms = [anonymize, anonymizeTerms].flatMap((v) =>
    Array.isArray(v) ? v.filter((t) => typeof t === 'string') : [],
  )
  if (terms.length > 0) return { enabled: anonymize !== false, terms }
  if (typeof anonymize === 'boolean') return { enabled: anonymize }
  return undefined
}

export function migrateV0ToV1(source: JsonObject): JsonObject {
  const out: JsonObject = {}
  const rawProvider = typeof source.provider === 'string' ? source.provider.trim().toLowerCase() : undefined
  const providerId = rawProvider || 'ollama'
  for (const [key, value] of Object.entries(source)) {
    if (key === 'schemaVersion' || key === 'anonymize' || key === 'anonymizeTerms') continue
    const providerField = v0ProviderKeys[key]
    const target = v0Keys[key]
    if (providerField) setPath(out, `providers.${providerId}.${providerField}`, value)
    else if (key === 'provider' && rawProvider) setPath(out, 'provider.active', rawProvider)
    else if (target) setPath(out, target, value)
    else out[key] = value
  }
  const anonymization = anonymizationOf(source)
  if (anonymization) out.anonymization = anonymization
  out.schemaVersion = 1
  return out
}
