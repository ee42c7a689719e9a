import type { ScriptedLlm } from './scriptedLlm'

/** The BUREAU_* overrides that make the active provider the scripted server (OpenAI protocol), plus `extra`. */
export function scriptedProviderEnv(
  llm: ScriptedLlm,
  apiKey: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    BUREAU_PROVIDER: 'openai',
    BUREAU_BASE_URL: llm.baseUrl,
    BUREAU_MODEL: 'scripted-model',
    BUREAU_API_KEY: apiKey,
    ...extra,
  }
}
