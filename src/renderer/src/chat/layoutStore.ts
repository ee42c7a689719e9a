import { create } from 'zustand'

/** Where focus goes when the conversations column (a drawer below ~1000 px) is opened. */
export type DrawerFocus = 'new' | 'search'

interface LayoutState {
  /** The conversations drawer is open (only narrow windows show it as a drawer). */
  drawerOpen: boolean
  focus: DrawerFocus
  /** Bumped on every request, so asking twice for the search box focuses it twice. */
  focusRequest: number
  openDrawer(focus: DrawerFocus): void
  closeDrawer(): void
}

export const useLayout = create<LayoutState>((set) => ({
  drawerOpen: false,
  focus: 'new',
  focusRequest: 0,
  openDrawer: (focus) => set((s) => ({ drawerOpen: true, focus, focusRequest: s.focusRequest + 1 })),
  closeDrawer: () => set({ drawerOpen: false }),
}))

/** The media query below which the side columns collapse (keep in step with the CSS). */
export const NARROW_QUERY = '(max-width: 999px)'

export const isNarrow = () => window.matchMedia(NARROW_QUERY).matches

export const CONVERSATIONS_TOGGLE_ID = 'conversations-toggle'
