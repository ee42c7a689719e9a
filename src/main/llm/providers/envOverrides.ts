import { AppError } from '../../../shared/errors'
import type { InteractionModeSetting } from '../types'

/** Environment overrides for headless use; all but BUREAU_PROVIDER apply to the active provider only. */
export interface EnvOverrides {
  providerId: string | undefined
  baseUrl: string | undefined
  model: string | undefined
  apiKey: string | undefined
  contextWindow: number | undefined
  /** `auto` clears an explicit mode from the presets or settings. */
  interactionMode: InteractionModeSetting | 'auto' | undefined
}

function value(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name]?.trim()
  return raw === undefined || raw === '' ? undefined : raw
}

export function readEnvOverrides(env: NodeJS.ProcessEnv): EnvOverrides {
  const baseUrl = value(env, 'BUREAU_BASE_URL')
  if (baseUrl !== undefined && !/^https?:\/\/[^\s]+$/i.test(baseUrl))
    throw new AppError('VALIDATION_FAILED', 'BUREAU_BASE_URL must be an http:// or https:// URL.')
  const window = value(env, 'BUREAU_CONTEXT_WINDOW')
  const contextWindow = window === undefined ? undefined : Number(window)
  if (contextWindow !== undefined && (!Number.isInteger(contextWindow) || contextWindow <= 0))
    throw new AppError(
      'VALIDATION_FAILED',
      `BUREAU_CONTEXT_WINDOW must be a whole number of tokens, not "${window}".`,
    )
  const mode = value(env, 'BUREAU_INTERACTION_MODE')?.toLowerCase()
  if (mode !== undefined && mode !== 'api' && mode !== 'cli' && mode !== 'auto')
    throw new AppError(
      'VALIDATION_FAILED',
      `BUREAU_INTERACTION_MODE must be api, cli or auto, not "${mode}".`,
    )
  return {
    providerId: value(env, 'BUREAU_PROVIDER'),
    baseUrl,
    model: value(env, 'BUREAU_MODEL'),
    apiKey: value(env, 'BUREAU_API_KEY'),
    contextWindow,
    interactionMode: mode,
  }
}
