import { create } from 'zustand'
import {
  type PendingFile,
  type PendingFilesState,
  pendingFilesSlice,
} from '../chat/composer/pendingFilesSlice'
import type { VoiceSessionState } from './voiceSession'

/** The session's state for React, and the files for the next question. */
interface VoiceStore extends PendingFilesState {
  session: VoiceSessionState | undefined
  setSession(state: VoiceSessionState): void
  takeFiles(): PendingFile[]
}

export const useVoice = create<VoiceStore>((set, get) => ({
  ...pendingFilesSlice(set, get, 'v'),
  session: undefined,
  setSession: (session) => set({ session }),
  takeFiles() {
    const files = get().files
    set({ files: [], rejected: [] })
    return files
  },
}))
