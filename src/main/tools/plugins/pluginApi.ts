import { z } from 'zod'
import { AppError } from '../../../shared/errors'
import { defineToolset, method } from '../defineToolset'
import { sessionState } from '../sessionState'
import type { Toolset } from '../types'

/** What a plugin's default export receives, so plugins need no dependency on Bureau's packages. */
export interface PluginApi {
  readonly defineToolset: typeof defineToolset
  readonly method: typeof method
  readonly z: typeof z
  readonly sessionState: typeof sessionState
  /** Throw `new AppError('VALIDATION_FAILED', 'short message')` for errors meant for the model. */
  readonly AppError: typeof AppError
}

export type PluginFactory = (api: PluginApi) => Toolset | Toolset[] | Promise<Toolset | Toolset[]>

export const pluginApi: PluginApi = Object.freeze({ defineToolset, method, z, sessionState, AppError })
