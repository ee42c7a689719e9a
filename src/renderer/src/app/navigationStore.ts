import { create } from 'zustand'

export const pages = ['chat', 'voice', 'workspace', 'automations', 'settings'] as const
export type Page = (typeof pages)[number]

interface NavigationState {
  page: Page
  aboutOpen: boolean
  go(page: Page): void
  setAboutOpen(open: boolean): void
}

function pageFromHash(): Page {
  const hash = window.location.hash.replace(/^#\/?/, '')
  return (pages as readonly string[]).includes(hash) ? (hash as Page) : 'chat'
}

export const useNavigation = create<NavigationState>((set) => ({
  page: pageFromHash(),
  aboutOpen: false,
  go(page) {
    window.location.hash = `/${page}`
    set({ page })
  },
  setAboutOpen: (aboutOpen) => set({ aboutOpen }),
}))

window.addEventListener('hashchange', () => useNavigation.setState({ page: pageFromHash() }))
