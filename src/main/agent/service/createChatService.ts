import { activeRuns } from './activeRuns'
import { type ChatConversations, createChatConversations } from './chatConversations'
import { type ActiveRun, type ChatRuns, type ChatServiceOptions, createChatRuns } from './chatRuns'

export type { MessageRef } from './chatConversations'
export type { ChatEventSink, ChatServiceOptions } from './chatRuns'

/** The chat: its runs (send, stop, approve…) and its stored conversations, sharing one registry of runs. */
export type ChatService = ChatRuns & ChatConversations

export function createChatService(options: ChatServiceOptions): ChatService {
  const runs = activeRuns<ActiveRun>()
  return { ...createChatRuns(options, runs), ...createChatConversations(options.store, runs) }
}
