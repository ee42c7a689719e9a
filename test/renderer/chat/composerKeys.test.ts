import { describe, expect, it } from 'vitest'
import { composerKeyAction } from '../../../src/renderer/src/chat/composer/composerKeys'

describe('composerKeyAction', () => {
  it('sends on Enter and keeps Shift+Enter for a new line', () => {
    expect(composerKeyAction({ key: 'Enter', shiftKey: false })).toBe('send')
    expect(composerKeyAction({ key: 'Enter', shiftKey: true })).toBe('none')
  })
  it('stops on Escape', () => {
    expect(composerKeyAction({ key: 'Escape', shiftKey: false })).toBe('stop')
  })
  it('leaves keys of an IME composition alone', () => {
    expect(composerKeyAction({ key: 'Enter', shiftKey: false, isComposing: true })).toBe('none')
    expect(composerKeyAction({ key: 'Enter', shiftKey: false, keyCode: 229 })).toBe('none')
  })
  it('brings back the last message on ↑ only in an empty box and without modifiers', () => {
    expect(composerKeyAction({ key: 'ArrowUp', shiftKey: false, empty: true })).toBe('recall')
    expect(composerKeyAction({ key: 'ArrowUp', shiftKey: false, empty: false })).toBe('none')
    expect(composerKeyAction({ key: 'ArrowUp', shiftKey: true, empty: true })).toBe('none')
    expect(composerKeyAction({ key: 'ArrowUp', shiftKey: false, empty: true, modified: true })).toBe('none')
  })
  it('ignores other keys', () => {
    expect(composerKeyAction({ key: 'a', shiftKey: false })).toBe('none')
  })
})
