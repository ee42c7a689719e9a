export type ComposerKeyAction = 'send' | 'stop' | 'recall' | 'none'

/**
 * Enter sends, Shift+Enter is a new line, Esc stops a running answer, ↑ in an empty box brings back the
 * last message; nothing while an IME composes.
 */
export function composerKeyAction(event: {
  key: string
  shiftKey: boolean
  isComposing?: boolean
  keyCode?: number
  /** The box is empty (↑ only recalls then, so it still moves the caret in a text). */
  empty?: boolean
  /** Ctrl, ⌘ or Alt is held. */
  modified?: boolean
}): ComposerKeyAction {
  // keyCode 229: Chromium's marker for keys that belong to an IME composition.
  if (event.isComposing || event.keyCode === 229) return 'none'
  if (event.key === 'Enter' && !event.shiftKey) return 'send'
  if (event.key === 'Escape') return 'stop'
  if (event.key === 'ArrowUp' && event.empty && !event.shiftKey && !event.modified) return 'recall'
  return 'none'
}
