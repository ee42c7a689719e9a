import { AppError, isAppError } from '../../../shared/errors'
import type { SpeechModelProgress, SpeechModelSummary } from '../../../shared/ipc'
import { trackDownload } from '../../models'
import type { SpeechModelStore } from './speechModels'

export interface SpeechDownloadsOptions {
  store: SpeechModelStore
  /** A download's progress (throttled) and its end. */
  emit: (progress: SpeechModelProgress) => void
  /** Minimum time between two progress events of one download (default 250 ms). */
  progressIntervalMs?: number
}

interface Download {
  progress: SpeechModelProgress
  controller: AbortController
  done: Promise<void>
}

/** An error for the window: the speech folder is named, never its host path. */
function inWords(error: unknown, dir: string): string {
  return isAppError(error)
    ? error.message.replaceAll(dir, 'the speech models folder')
    : 'The download failed unexpectedly.'
}

/**
 * What the `voice.models*` routes do: the catalogue with what is installed here, downloads in the
 * background with progress events, cancel (the bytes stay to resume), removal read back.
 */
export function createSpeechDownloads(options: SpeechDownloadsOptions) {
  const { store } = options
  const downloads = new Map<string, Download>()
  const interval = options.progressIntervalMs ?? 250

  async function summary(id: string): Promise<SpeechModelSummary> {
    const entry = store.entry(id)
    const [installed, partialBytes] = await Promise.all([store.get(id), store.partialBytes(id)])
    return {
      id: entry.id,
      kind: entry.kind,
      name: entry.name,
      language: entry.language,
      licence: entry.licence,
      sizeBytes: entry.files.reduce((sum, f) => sum + f.sizeBytes, 0),
      pinned: entry.files.every((f) => f.sha256 !== null),
      installed: installed !== undefined,
      installedBytes: installed?.sizeBytes ?? null,
      partialBytes,
      download: downloads.get(id)?.progress ?? null,
    }
  }

  async function run(id: string, download: Download): Promise<void> {
    const entry = store.entry(id)
    const names = entry.files.map((f) => f.name)
    // Per file: bytes received and the file's size (the server's, else the catalogue's).
    const received = entry.files.map(() => 0)
    const totals = entry.files.map((f) => f.sizeBytes)
    const sum = (list: number[]) => list.reduce((a, b) => a + b, 0)
    await trackDownload(download, {
      emit: options.emit,
      intervalMs: interval,
      pull: async (update) => {
        await store.pull(id, {
          signal: download.controller.signal,
          onProgress: (file, p) => {
            const index = names.indexOf(file)
            // The files before this one are complete (downloaded now or kept from a stopped download).
            for (let i = 0; i < index; i++) received[i] = totals[i] ?? 0
            received[index] = p.receivedBytes
            if (p.totalBytes !== null) totals[index] = p.totalBytes
            update({
              receivedBytes: sum(received),
              totalBytes: sum(totals),
              speed: p.speed,
              etaSeconds: p.etaSeconds,
            })
          },
        })
        const installed = await store.get(id)
        return {
          receivedBytes: installed?.sizeBytes ?? download.progress.receivedBytes,
          totalBytes: installed?.sizeBytes ?? download.progress.totalBytes,
        }
      },
      failure: (error, cancelled) =>
        cancelled
          ? 'Stopped. What arrived is kept: Download continues from there.'
          : inWords(error, store.dir),
    })
  }

  return {
    async list(): Promise<SpeechModelSummary[]> {
      return Promise.all(store.catalogue().map((e) => summary(e.id)))
    },
    async pull(id: string): Promise<SpeechModelProgress> {
      const entry = store.entry(id)
      const running = downloads.get(id)
      if (running?.progress.state === 'downloading') return running.progress
      const resumedBytes = await store.partialBytes(id)
      const download: Download = {
        controller: new AbortController(),
        done: Promise.resolve(),
        progress: {
          id,
          name: entry.name,
          state: 'downloading',
          receivedBytes: resumedBytes,
          totalBytes: entry.files.reduce((sum, f) => sum + f.sizeBytes, 0),
          speed: 0,
          etaSeconds: null,
          resumedBytes,
          message: null,
        },
      }
      downloads.set(id, download)
      options.emit(download.progress)
      download.done = run(id, download)
      return download.progress
    },
    cancel(id: string): { cancelled: boolean } {
      const download = downloads.get(id)
      if (download?.progress.state !== 'downloading') return { cancelled: false }
      download.controller.abort()
      return { cancelled: true }
    },
    /** Removes an installed model or a stopped download's bytes; the summary read back shows neither. */
    async remove(id: string): Promise<SpeechModelSummary> {
      store.entry(id)
      const running = downloads.get(id)
      if (running?.progress.state === 'downloading')
        throw new AppError('CONFLICT', `${running.progress.name} is downloading: cancel it first.`)
      await store.remove(id)
      downloads.delete(id)
      const after = await summary(id)
      if (after.installed || after.partialBytes > 0)
        throw new AppError('HANDLER_FAILED', `${after.name} could not be removed completely.`)
      return after
    },
    /** Resolves when the model's current download has ended (tests, shutdown). */
    settled: async (id: string) => downloads.get(id)?.done,
    dispose() {
      for (const download of downloads.values()) download.controller.abort()
    },
  }
}

export type SpeechDownloads = ReturnType<typeof createSpeechDownloads>
