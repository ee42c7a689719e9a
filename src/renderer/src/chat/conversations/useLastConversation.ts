import { useCallback, useEffect, useRef } from 'react'
import { useBureau } from '../../ipc/BureauProvider'
import { useChat } from '../chatStore'

let restoredOnce = false
let skipped = false

/** The user opened or started a conversation: a restore still on its way must not replace it. */
export function skipRestore(): void {
  skipped = true
}

/**
 * Reopens the conversation that was open last time (the setting `ui.lastConversationId`) when the app
 * starts with an empty chat, and returns the function that remembers the open one.
 */
export function useLastConversation(): (id: string | undefined) => void {
  const bureau = useBureau()
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
      const conversation = await bureau.invoke('conversations.get', { id: last }).catch(() => undefined)
      // Only into an untouched chat: the user may have started a new one meanwhile.
      const state = useChat.getState()
      if (
        !conversation ||
        skipped ||
        state.conversationId !== undefined ||
        state.messages.length > 0 ||
        state.sending
      )
        return
      state.showConversation(conversation.id, conversation.messages, conversation.leafId ?? null)
      state.setMeta(conversation)
    })().catch(() => {})
  }, [bureau])
  return useCallback(
    (id: string | undefined) => {
      if (!id || saved.current === id) return
      saved.current = id
      void bureau.invoke('settings.update', { ui: { lastConversationId: id } }).catch(() => {})
    },
    [bureau],
  )
}
