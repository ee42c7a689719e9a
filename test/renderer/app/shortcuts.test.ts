import { afterEach, describe, expect, it, vi } from 'vitest'
import { shortcutCommand, shortcutList } from '../../../src/renderer/src/app/shortcuts'

const press = (
  key: string,
  mods: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey', boolean>> = {},
) => shortcutCommand({ key, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...mods })

describe('app shortcuts', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('maps Ctrl+N, Ctrl+K, Ctrl+, and Esc off a Mac', () => {
    vi.stubGlobal('navigator', { platform: 'Linux x86_64', userAgent: 'X11' })
    expect(press('n', { ctrlKey: true })).toBe('new-chat')
    expect(press('K', { ctrlKey: true })).toBe('search')
    expect(press(',', { ctrlKey: true })).toBe('settings')
    expect(press('Escape')).toBe('stop')
    expect(press('n', { metaKey: true })).toBeUndefined()
    expect(press('n', { ctrlKey: true, shiftKey: true })).toBeUndefined()
    expect(press('n')).toBeUndefined()
  })

  it('uses ⌘ on a Mac and lists it in About', () => {
    vi.stubGlobal('navigator', { platform: 'MacIntel', userAgent: 'Macintosh' })
    expect(press('k', { metaKey: true })).toBe('search')
    expect(press('k', { ctrlKey: true })).toBeUndefined()
    expect(shortcutList().find((s) => s.action === 'Search conversations')?.keys).toEqual(['⌘', 'K'])
  })
})
