import { useCallback, useEffect, useRef } from 'react'
import { bureau } from '../ipc/bureauClient'
import { useChat } from './chatStore'

let restoredOnce = false

/**
 * Reopens the conversation that was open last time (the setting `ui.lastConversationId`) when the app
 * starts with an empty chat, and returns the function that remembers the open one.
 */
export function useLastConversation(open: (id: string) => Promise<void>): (id: string | undefined) => void {
  const saved = useRef<string | null | undefined>(undefined)
  useEffect(() => {
    if (restoredOnce) return
    restoredOnce = true
    void (async () => {
      const settings = await bureau.invoke('settings.get')
      const last = settings.ui.lastConversationId
      saved.current = last
      if (!last) return
      // A conversation deleted since is not an error: start with an empty chat.
      const exists = (await bureau.invoke('conversations.list', {})).some((c) => c.id === last)
      const { conversationId, messages } = useChat.getState()
      if (exists && conversationId === undefined && messages.length === 0) await open(last)
    })().catch(() => {})
  }, [open])
  return useCallback((id: string | undefined) => {
    if (!id || saved.current === id) return
    saved.current = id
    void bureau.invoke('settings.update', { ui: { lastConversationId: id } }).catch(() => {})
  }, [])
}
