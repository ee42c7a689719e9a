export type ComposerKeyAction = 'send' | 'stop' | 'none'

/** Enter sends, Shift+Enter is a new line, Esc stops a running answer; nothing while an IME composes. */
export function composerKeyAction(event: {
  key: string
  shiftKey: boolean
  isComposing?: boolean
  keyCode?: number
}): ComposerKeyAction {
  // keyCode 229: Chromium's marker for keys that belong to an IME composition.
  if (event.isComposing || event.keyCode === 229) return 'none'
  if (event.key === 'Enter' && !event.shiftKey) return 'send'
  if (event.key === 'Escape') return 'stop'
  return 'none'
}
