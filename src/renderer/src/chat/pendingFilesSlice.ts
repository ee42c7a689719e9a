import { type AttachmentLimits, admitFiles, DEFAULT_LIMITS, type Rejection } from './attachmentLimits'

export interface PendingFile {
  id: string
  file: File
}

/** Files waiting to be sent (chat composer, voice panel), admitted within the attachment limits. */
export interface PendingFilesState {
  files: PendingFile[]
  /** Files the last add left out, with reasons; shown until dismissed or the next add. */
  rejected: Rejection[]
  limits: AttachmentLimits
  addFiles(files: readonly File[]): void
  removeFile(id: string): void
  dismissRejected(): void
}

type SetPending = (
  partial: Partial<PendingFilesState> | ((state: PendingFilesState) => Partial<PendingFilesState>),
) => void

/** The pending-files part of a zustand store; `idPrefix` keeps ids of different stores apart. */
export function pendingFilesSlice(
  set: SetPending,
  get: () => PendingFilesState,
  idPrefix: string,
): PendingFilesState {
  let nextId = 1
  return {
    files: [],
    rejected: [],
    limits: DEFAULT_LIMITS,
    addFiles(incoming) {
      const { files, limits } = get()
      const { accepted, rejected } = admitFiles(
        files.map((p) => p.file),
        incoming,
        limits,
      )
      set({
        files: [...files, ...accepted.map((file) => ({ id: `${idPrefix}${nextId++}`, file }))],
        rejected,
      })
    },
    removeFile: (id) => set((state) => ({ files: state.files.filter((f) => f.id !== id) })),
    dismissRejected: () => set({ rejected: [] }),
  }
}
