import type { ChatService } from '../agent'
import type { Logger } from '../platform'
import type { ToolRegistry } from '../tools'
import type { FileStore } from './files/fileStore'

/** Hono environment of the bridge: who is calling (the bridge token's name). */
export interface BridgeEnv {
  Variables: { tokenName: string }
}

/** What the endpoints use: the app's detached chat runs, its toolsets, the bridge's file store. */
export interface BridgeServices {
  chat: Pick<ChatService, 'runDetached' | 'streamDetached' | 'readWorkspaceFile'>
  tools: () => ToolRegistry
  files: FileStore
  logger: Logger
  /** Token names allowed the user's memories (setting `bridge.memoryTokens`). */
  memoryTokens?: () => readonly string[]
}
