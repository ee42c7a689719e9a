import { create } from 'zustand'
import { type PendingFilesState, pendingFilesSlice } from './pendingFilesSlice'

interface ComposerState extends PendingFilesState {
  text: string
  setText(text: string): void
  clear(): void
}

export const useComposer = create<ComposerState>((set, get) => ({
  ...pendingFilesSlice(set, get, 'f'),
  text: '',
  setText: (text) => set({ text }),
  clear: () => set({ text: '', files: [], rejected: [] }),
}))
