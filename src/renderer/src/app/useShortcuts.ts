import { useEffect } from 'react'
import { type ChatActions, useChatActions } from '../chat/chatActions'
import { useChat } from '../chat/chatStore'
import { useLayout } from '../chat/layoutStore'
import { useNavigation } from './navigationStore'
import { type ShortcutCommand, shortcutCommand } from './shortcuts'

/** Focuses the element once it is on screen (a page may still be loading after navigation). */
function focusSoon(selector: string, tries = 30) {
  const el = document.querySelector<HTMLElement>(selector)
  if (el && el.offsetParent !== null) el.focus()
  else if (tries > 0) requestAnimationFrame(() => focusSoon(selector, tries - 1))
}

function run(command: ShortcutCommand, event: KeyboardEvent, stopRun: ChatActions['stopRun']): boolean {
  const chat = useChat.getState()
  const navigation = useNavigation.getState()
  switch (command) {
    case 'stop':
      // Another control used Esc (a dialog, a rename, the drawer): leave it to that control.
      if (!chat.run || event.defaultPrevented || document.querySelector('dialog[open]')) return false
      void stopRun()
      return true
    case 'new-chat':
      navigation.go('chat')
      useLayout.getState().closeDrawer()
      chat.showConversation(undefined, [])
      focusSoon('.composer-input')
      return true
    case 'search':
      navigation.go('chat')
      useLayout.getState().openDrawer('search')
      return true
    case 'settings':
      navigation.go('settings')
      return true
  }
}

/** The app-wide shortcuts (see shortcuts.ts), listening on the window so they work wherever focus is. */
export function useShortcuts() {
  const { stopRun } = useChatActions()
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.isComposing) return
      const command = shortcutCommand(event)
      if (command && run(command, event, stopRun)) event.preventDefault()
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [stopRun])
}
