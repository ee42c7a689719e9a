import { resolve } from 'node:path'
import {
  type DownloadProgress,
  type InstalledModel,
  loadCatalogue,
  ModelStore,
  pullModel,
} from '../../models'
import { defaultDataDir } from '../../platform'
import type { ModelsCliOptions } from '../commandOptions'
import { processTextIo, type TextIo } from '../textIo'

function store(options: ModelsCliOptions, env: NodeJS.ProcessEnv): ModelStore {
  return new ModelStore(options.dataDir ?? defaultDataDir(env))
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(2)} GB`
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MB`
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(0)} KB`
  return `${Math.round(bytes)} B`
}

/** `42% 1.20 GB / 2.50 GB  8.3 MB/s  ETA 2m 40s` */
export function progressLine(progress: DownloadProgress): string {
  const { receivedBytes, totalBytes, speed, etaSeconds } = progress
  const percent = totalBytes ? `${Math.floor((receivedBytes / totalBytes) * 100)}% ` : ''
  const size = totalBytes
    ? `${formatBytes(receivedBytes)} / ${formatBytes(totalBytes)}`
    : formatBytes(receivedBytes)
  const eta =
    etaSeconds === null
      ? ''
      : `  ETA ${Math.floor(etaSeconds / 60)}m ${String(Math.round(etaSeconds % 60)).padStart(2, '0')}s`
  const resumed = progress.resumes > 0 ? `  (resumed ${progress.resumes}×)` : ''
  return `${percent}${size}  ${formatBytes(speed)}/s${eta}${resumed}`
}

function installedLine(model: InstalledModel): string {
  return `${model.id}  ${formatBytes(model.sizeBytes)}  ${model.path}${model.sha256 ? `  sha256 ${model.sha256}` : ''}`
}

export async function runModelsList(
  options: ModelsCliOptions,
  io: TextIo = processTextIo,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const catalogue = await loadCatalogue()
  const installed = await store(options, env).list()
  if (options.json) {
    io.out(`${JSON.stringify({ catalogue, installed }, null, 2)}\n`)
    return
  }
  const have = new Set(installed.map((m) => m.id))
  io.out('Recommended (bureau models pull <id>):\n')
  for (const entry of catalogue)
    io.out(
      `  ${have.has(entry.id) ? '*' : ' '} ${entry.id}  ${entry.name}  ~${formatBytes(entry.sizeBytes)}  needs ~${entry.minRamGiB} GB RAM  ${entry.licence}\n`,
    )
  io.out(installed.length ? 'Installed:\n' : 'Installed: none\n')
  for (const model of installed) io.out(`  ${installedLine(model)}\n`)
}

export async function runModelsPull(
  ref: string,
  options: ModelsCliOptions,
  io: TextIo = processTextIo,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const controller = new AbortController()
  const onSignal = () => controller.abort()
  process.once('SIGINT', onSignal)
  let last = 0
  try {
    const model = await pullModel({
      store: store(options, env),
      catalogue: await loadCatalogue(),
      ref,
      sha256: options.sha256,
      signal: controller.signal,
      onProgress: (progress) => {
        const now = Date.now()
        if (now - last < 500 && progress.receivedBytes !== progress.totalBytes) return
        last = now
        io.err(`${progressLine(progress)}\n`)
      },
    })
    io.out(options.json ? `${JSON.stringify(model, null, 2)}\n` : `installed ${installedLine(model)}\n`)
  } finally {
    process.off('SIGINT', onSignal)
  }
}

export async function runModelsImport(
  file: string,
  options: ModelsCliOptions,
  io: TextIo = processTextIo,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const model = await store(options, env).import(resolve(file), options.id)
  io.out(options.json ? `${JSON.stringify(model, null, 2)}\n` : `installed ${installedLine(model)}\n`)
}

export async function runModelsRemove(
  id: string,
  options: ModelsCliOptions,
  io: TextIo = processTextIo,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  await store(options, env).remove(id)
  io.out(`removed ${id}\n`)
}
