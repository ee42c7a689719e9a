import { create } from 'zustand'
import { type AttachmentLimits, admitFiles, DEFAULT_LIMITS, type Rejection } from './attachmentLimits'

export interface PendingFile {
  id: string
  file: File
}

interface ComposerState {
  text: string
  files: PendingFile[]
  /** Files the last add left out, with reasons; shown until dismissed or the next add. */
  rejected: Rejection[]
  limits: AttachmentLimits
  setText(text: string): void
  addFiles(files: readonly File[]): void
  removeFile(id: string): void
  dismissRejected(): void
  clear(): void
}

let nextId = 1

export const useComposer = create<ComposerState>((set, get) => ({
  text: '',
  files: [],
  rejected: [],
  limits: DEFAULT_LIMITS,
  setText: (text) => set({ text }),
  addFiles(incoming) {
    const { files, limits } = get()
    const { accepted, rejected } = admitFiles(
      files.map((p) => p.file),
      incoming,
      limits,
    )
    set({ files: [...files, ...accepted.map((file) => ({ id: `f${nextId++}`, file }))], rejected })
  },
  removeFile: (id) => set((state) => ({ files: state.files.filter((f) => f.id !== id) })),
  dismissRejected: () => set({ rejected: [] }),
  clear: () => set({ text: '', files: [], rejected: [] }),
}))
