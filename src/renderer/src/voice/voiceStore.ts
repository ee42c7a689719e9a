import { create } from 'zustand'
import { type AttachmentLimits, admitFiles, DEFAULT_LIMITS, type Rejection } from '../chat/attachmentLimits'
import type { PendingFile } from '../chat/composerStore'
import type { VoiceSessionState } from './voiceSession'

interface VoiceStore {
  session: VoiceSessionState | undefined
  /** Files for the next question. */
  files: PendingFile[]
  rejected: Rejection[]
  limits: AttachmentLimits
  setSession(state: VoiceSessionState): void
  addFiles(files: readonly File[]): void
  removeFile(id: string): void
  dismissRejected(): void
  takeFiles(): PendingFile[]
}

let nextId = 1

export const useVoice = create<VoiceStore>((set, get) => ({
  session: undefined,
  files: [],
  rejected: [],
  limits: DEFAULT_LIMITS,
  setSession: (session) => set({ session }),
  addFiles(incoming) {
    const { files, limits } = get()
    const { accepted, rejected } = admitFiles(
      files.map((p) => p.file),
      incoming,
      limits,
    )
    set({ files: [...files, ...accepted.map((file) => ({ id: `v${nextId++}`, file }))], rejected })
  },
  removeFile: (id) => set((s) => ({ files: s.files.filter((f) => f.id !== id) })),
  dismissRejected: () => set({ rejected: [] }),
  takeFiles() {
    const files = get().files
    set({ files: [], rejected: [] })
    return files
  },
}))
