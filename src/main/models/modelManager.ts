import { totalmem } from 'node:os'
import { basename, join } from 'node:path'
import { AppError, isAppError } from '../../shared/errors'
import type {
  CatalogueModel,
  InstalledModelSummary,
  ModelProgress,
  ModelSpeed,
} from '../../shared/ipc/routes/models'
import { MAX_IMPORT_BYTES } from '../../shared/ipc/routes/models'
import { type CatalogueEntry, loadCatalogue } from './catalogue'
import { importBytes } from './importBytes'
import { probeMachine } from './machineProfile'
import { type InstalledModel, idFromFileName, ModelStore } from './modelStore'
import { pullModel } from './pullModel'
import { estimateSpeed, type MachineProfile } from './speedEstimate'
import { trackDownload } from './trackDownload'

export interface ModelManagerOptions {
  dataDir: string
  /** The model id the active provider runs, when it is the built-in local provider. */
  activeLocalModel: () => Promise<string | undefined>
  /** Makes `id` the local provider's model and that provider active. */
  use: (id: string) => Promise<{ providerId: string; model: string }>
  /** A download's progress (throttled) and its end. */
  emit: (progress: ModelProgress) => void
  /** Frees a model before its file is deleted (the runtime may hold it). */
  release?: (path: string) => Promise<void>
  catalogue?: () => Promise<CatalogueEntry[]>
  fetch?: typeof fetch
  totalMemoryBytes?: number
  /** This computer's cores, memory bandwidth and GPUs, for the speed estimate (default: measured once). */
  machine?: () => Promise<MachineProfile>
  /** Minimum time between two progress events of one download (default 250 ms). */
  progressIntervalMs?: number
}

interface Download {
  progress: ModelProgress
  controller: AbortController
}

/** An error for the renderer: the models folder is named, not its host path. */
function message(error: unknown, dir: string): string {
  return isAppError(error)
    ? error.message.replaceAll(dir, 'the models folder')
    : 'The download failed unexpectedly.'
}

/** What the `models.*` IPC routes do: installed models, the catalogue, downloads, imports. */
export function createModelManager(options: ModelManagerOptions) {
  const store = new ModelStore(options.dataDir)
  const catalogue = options.catalogue ?? (() => loadCatalogue())
  const downloads = new Map<string, Download>()
  const memory = options.totalMemoryBytes ?? totalmem()
  const interval = options.progressIntervalMs ?? 250
  const machine = options.machine ?? (() => probeMachine(join(options.dataDir, 'machine.json')))

  const summary = (model: InstalledModel, active: string | undefined): InstalledModelSummary => ({
    id: model.id,
    name: model.name,
    fileName: basename(model.path),
    sizeBytes: model.sizeBytes,
    inUse: model.id === active,
    installedAt: model.installedAt,
  })
  const installed = async (id: string) => {
    const model = (await store.list()).find((m) => m.id === id)
    if (!model) throw new AppError('NOT_FOUND', `No installed model "${id}".`)
    return model
  }

  const run = (entry: CatalogueEntry, download: Download) =>
    trackDownload(download, {
      emit: options.emit,
      intervalMs: interval,
      pull: async (update) => {
        await pullModel({
          store,
          catalogue: [entry],
          ref: entry.id,
          signal: download.controller.signal,
          onProgress: (p) =>
            update({
              receivedBytes: p.receivedBytes,
              totalBytes: p.totalBytes,
              speed: p.speed,
              etaSeconds: p.etaSeconds,
            }),
          ...(options.fetch && { fetch: options.fetch }),
        })
        return {}
      },
      failure: (error) => message(error, store.dir),
    })

  return {
    async list(): Promise<InstalledModelSummary[]> {
      const active = await options.activeLocalModel()
      return (await store.list()).map((model) => summary(model, active))
    },
    async catalogue(): Promise<CatalogueModel[]> {
      const ids = new Set((await store.list()).map((m) => m.id))
      return (await catalogue()).map((e) => ({
        id: e.id,
        name: e.name,
        sizeBytes: e.sizeBytes,
        licence: e.licence,
        parameters: e.parameters,
        quantisation: e.quantisation,
        minRamGiB: e.minRamGiB,
        notes: e.notes ?? null,
        installed: ids.has(e.id),
        fitsMemory: memory >= e.minRamGiB * 1024 ** 3,
      }))
    },
    async speeds(): Promise<ModelSpeed[]> {
      const profile = await machine().catch(() => undefined)
      return (await catalogue()).map((e) => ({ id: e.id, speed: profile ? estimateSpeed(e, profile) : null }))
    },
    downloads: (): ModelProgress[] => [...downloads.values()].map((d) => d.progress),
    async pull(id: string): Promise<ModelProgress> {
      const entry = (await catalogue()).find((e) => e.id === id)
      if (!entry) throw new AppError('NOT_FOUND', `"${id}" is not in the catalogue of recommended models.`)
      const running = downloads.get(id)
      if (running?.progress.state === 'downloading') return running.progress
      const download: Download = {
        controller: new AbortController(),
        progress: {
          id,
          name: entry.name,
          state: 'downloading',
          receivedBytes: 0,
          totalBytes: entry.sizeBytes,
          speed: 0,
          etaSeconds: null,
          message: null,
        },
      }
      downloads.set(id, download)
      options.emit(download.progress)
      void run(entry, download)
      return download.progress
    },
    cancel(id: string): { cancelled: boolean } {
      const download = downloads.get(id)
      if (download?.progress.state !== 'downloading') return { cancelled: false }
      download.controller.abort()
      return { cancelled: true }
    },
    async import(fileName: string, bytes: Uint8Array): Promise<InstalledModelSummary> {
      if (bytes.byteLength > MAX_IMPORT_BYTES)
        throw new AppError(
          'TOO_LARGE',
          `${fileName} is too large to send through the window (${MAX_IMPORT_BYTES / 1024 / 1024} MiB at most). Run \`bureau models import <file.gguf>\` instead.`,
        )
      if (!/\.gguf$/i.test(fileName))
        throw new AppError(
          'VALIDATION_FAILED',
          `${fileName} is not a .gguf file. Pick a GGUF model made for llama.cpp.`,
        )
      const model = await importBytes(store, fileName, bytes, idFromFileName(fileName))
      return summary(model, await options.activeLocalModel())
    },
    async delete(id: string): Promise<{ deleted: boolean }> {
      const model = await installed(id)
      await options.release?.(model.path)
      await store.remove(id)
      return { deleted: true }
    },
    async use(id: string) {
      await installed(id)
      return options.use(id)
    },
    /** Cancels running downloads (app shutdown). */
    dispose() {
      for (const download of downloads.values()) download.controller.abort()
    },
  }
}

export type ModelManager = ReturnType<typeof createModelManager>

/** The `models.*` IPC routes. */
export function modelHandlers(manager: ModelManager) {
  return {
    'models.list': () => manager.list(),
    'models.catalogue': () => manager.catalogue(),
    'models.speeds': () => manager.speeds(),
    'models.downloads': () => manager.downloads(),
    'models.pull': (input: { id: string }) => manager.pull(input.id),
    'models.cancel': (input: { id: string }) => manager.cancel(input.id),
    'models.import': (input: { fileName: string; bytes: Uint8Array }) =>
      manager.import(input.fileName, input.bytes),
    'models.delete': (input: { id: string }) => manager.delete(input.id),
    'models.use': (input: { id: string }) => manager.use(input.id),
  }
}
