import { join } from 'node:path'
import { Hono } from 'hono'
import type { ChatService } from '../agent'
import type { Logger } from '../platform'
import type { SettingsService } from '../settings'
import type { ToolRegistry } from '../tools'
import { type AuthThrottleOptions, createAuthThrottle } from './auth/authThrottle'
import { requireBridgeToken } from './auth/requireBridgeToken'
import { mountChatEndpoint } from './chat/chatEndpoint'
import { BridgeError, bridgeErrors, errorResponse } from './errors'
import { mountFileEndpoints } from './files/fileEndpoints'
import { createFileStore } from './files/fileStore'
import { type BridgeLimits, limitsFrom } from './limits/bridgeLimits'
import { createRunQueue, type RunQueue } from './limits/runQueue'
import { mountModelEndpoints } from './models/modelEndpoints'
import type { BridgeEnv, BridgeServices } from './types'

/** What the bridge needs from the app (`BureauApp` has all of it). */
export interface BridgeApp {
  settings: SettingsService
  tools: { registry: ToolRegistry }
  chat: Pick<ChatService, 'runDetached' | 'streamDetached' | 'readWorkspaceFile'>
  logger: Logger
}

export interface BridgeOptions {
  app: BridgeApp
  dataDir: string
  /** `serve --bridge-*` flags; unset ones come from the `bridge.*` settings. */
  limits?: Partial<BridgeLimits>
  /** How many wrong API keys an address may send per window before 429 (default 10 a minute). */
  authThrottle?: AuthThrottleOptions
}

export interface Bridge {
  /** Pass to `startHttpHost({ mounts })`: mounts everything under `/v1`. */
  mount: (http: Hono) => void
  queue: RunQueue
  limits: () => BridgeLimits
}

/** The OpenAI-compatible API: `/v1/models`, `/v1/chat/completions`, `/v1/files`, behind bridge tokens. */
export function createBridge(options: BridgeOptions): Bridge {
  const { app } = options
  const limits = limitsFrom(app.settings, options.limits)
  const queue = createRunQueue(limits)
  const services: BridgeServices = {
    chat: app.chat,
    tools: () => app.tools.registry,
    files: createFileStore(join(options.dataDir, 'bridge', 'files'), { limits }),
    logger: app.logger.child('bridge'),
    memoryTokens: () => app.settings.get().bridge.memoryTokens,
  }
  const bridge = new Hono<BridgeEnv>()
  bridge.use('*', requireBridgeToken(app.settings, createAuthThrottle(options.authThrottle)))
  mountModelEndpoints(bridge, services.tools)
  mountChatEndpoint(bridge, services, queue, limits)
  mountFileEndpoints(bridge, services.files, limits)
  bridge.all('*', (c) => errorResponse(c, bridgeErrors.notFound(c.req.method, c.req.path)))
  bridge.onError((error, c) => {
    if (error instanceof BridgeError) return errorResponse(c, error)
    services.logger.error('bridge request failed', { path: c.req.path, error: String(error) })
    return errorResponse(c, bridgeErrors.internal())
  })
  return { mount: (http) => http.route('/v1', bridge), queue, limits }
}
