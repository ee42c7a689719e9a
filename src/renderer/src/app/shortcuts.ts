/** The app's keyboard shortcuts, as listed in About (Mod: Ctrl, or ⌘ on a Mac). */
export interface Shortcut {
  keys: string[]
  action: string
}

export const isMac = () => /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent)

export function modKey(): string {
  return isMac() ? '⌘' : 'Ctrl'
}

export function shortcutList(): Shortcut[] {
  const mod = modKey()
  return [
    { keys: ['Enter'], action: 'Send the message' },
    { keys: ['Shift', 'Enter'], action: 'New line in the message' },
    { keys: ['Esc'], action: 'Stop the answer being written (wherever the focus is)' },
    { keys: [mod, 'N'], action: 'New chat' },
    { keys: [mod, 'K'], action: 'Search conversations' },
    { keys: [mod, ','], action: 'Open Settings' },
    { keys: ['↑'], action: 'In an empty message box: bring back your last message to edit it' },
  ]
}

export type ShortcutCommand = 'stop' | 'new-chat' | 'search' | 'settings'

/** Which app command a key press is, if any (Ctrl or ⌘ with N, K or ,; Esc). */
export function shortcutCommand(event: {
  key: string
  ctrlKey: boolean
  metaKey: boolean
  altKey: boolean
  shiftKey: boolean
}): ShortcutCommand | undefined {
  if (event.key === 'Escape' && !event.ctrlKey && !event.metaKey && !event.altKey) return 'stop'
  const mod = isMac() ? event.metaKey : event.ctrlKey
  if (!mod || event.altKey || event.shiftKey) return undefined
  switch (event.key.toLowerCase()) {
    case 'n':
      return 'new-chat'
    case 'k':
      return 'search'
    case ',':
      return 'settings'
    default:
      return undefined
  }
}
