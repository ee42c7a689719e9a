import type { AttachmentCheckResult } from '../../../../shared/ipc'
import { type AttachmentLimits, admitFiles, DEFAULT_LIMITS, type Rejection } from './attachmentLimits'

/** What the pre-send conversion found so far; `unchecked`: the host could not be asked (read on Send). */
export type PendingCheck = { status: 'converting' } | { status: 'unchecked' } | AttachmentCheckResult

export interface PendingFile {
  id: string
  file: File
  check?: PendingCheck | undefined
}

/** Converts one chosen file on the host; `count` is how many files the message carries now. */
export type CheckFile = (file: File, count: number) => Promise<AttachmentCheckResult>

/** Files waiting to be sent (chat composer, voice panel), admitted within the attachment limits. */
export interface PendingFilesState {
  files: PendingFile[]
  /** Files the last add left out, with reasons; shown until dismissed or the next add. */
  rejected: Rejection[]
  limits: AttachmentLimits
  /** The pre-send check each added file goes through; tests replace it. */
  checkFile: CheckFile | undefined
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
  checkFile?: CheckFile,
): PendingFilesState {
  let nextId = 1
  const settle = (id: string, check: PendingCheck) =>
    set((state) => ({ files: state.files.map((f) => (f.id === id ? { ...f, check } : f)) }))

  function startChecks(added: readonly PendingFile[]) {
    const check = get().checkFile
    if (!check) return
    const count = get().files.length
    for (const pending of added) {
      check(pending.file, count).then(
        (result) => settle(pending.id, result),
        () => settle(pending.id, { status: 'unchecked' }),
      )
    }
  }

  return {
    files: [],
    rejected: [],
    limits: DEFAULT_LIMITS,
    checkFile,
    addFiles(incoming) {
      const { files, limits, checkFile: check } = get()
      const { accepted, rejected } = admitFiles(
        files.map((p) => p.file),
        incoming,
        limits,
      )
      const added = accepted.map(
        (file): PendingFile => ({
          id: `${idPrefix}${nextId++}`,
          file,
          ...(check ? { check: { status: 'converting' as const } } : {}),
        }),
      )
      set({ files: [...files, ...added], rejected })
      startChecks(added)
    },
    removeFile: (id) => set((state) => ({ files: state.files.filter((f) => f.id !== id) })),
    dismissRejected: () => set({ rejected: [] }),
  }
}
