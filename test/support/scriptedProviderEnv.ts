import { vi } from 'vitest'
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

/** Sets environment variables in this process until `vi.unstubAllEnvs()` puts the old values back. */
export function stubEnv(vars: Record<string, string>): void {
  for (const [name, value] of Object.entries(vars)) vi.stubEnv(name, value)
}
