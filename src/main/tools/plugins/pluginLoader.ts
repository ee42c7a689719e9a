import { existsSync, statSync } from 'node:fs'
import { mkdir, readdir } from 'node:fs/promises'
import { join, relative, resolve, sep } from 'node:path'
import type { FSWatcher } from 'chokidar'
import type { Logger } from '../../platform'
import { silentLogger } from '../../platform'
import type { ToolRegistry } from '../types'
import { loadPlugin } from './loadPlugin'
import type { PluginApi } from './pluginApi'

/** Default debounce for hot reloads (setting `tools.watchDebounceMs`). */
const DEFAULT_WATCH_DEBOUNCE_MS = 30_000

/**
 * chokidar drops a second change of a file that comes within 50 ms of the first it reported. A reload
 * that starts after that window reads whatever a dropped change wrote; one that starts inside it could
 * load the earlier text and never hear of the later one.
 */
const MIN_WATCH_DEBOUNCE_MS = 60

export interface PluginReport {
  /** The plugin folder. */
  plugin: string
  /** The entry file that was loaded or failed (the folder when there is none). */
  file: string
  status: 'loaded' | 'failed' | 'removed'
  /** Toolsets added to the registry. */
  toolsets: string[]
  /** Toolsets not added because the name is taken, with the reason. */
  skipped: Array<{ name: string; reason: string }>
  error?: string
}

export interface PluginLoaderOptions {
  registry: ToolRegistry
  /** Folders that hold plugin folders, in priority order (shipped `tools/`, then `<data-dir>/tools`). */
  dirs: readonly string[]
  debounceMs?: number
  logger?: Logger
  onReport?: (report: PluginReport) => void
  api?: PluginApi
}

export interface PluginLoader {
  /** Loads every plugin folder found now. */
  load(): Promise<PluginReport[]>
  /** Starts watching (creating missing folders); changes are applied after the debounce. */
  watch(): Promise<void>
  /** The latest report per plugin folder. */
  reports(): PluginReport[]
  /** Resolves once pending reloads have run (tests, shutdown). */
  idle(): Promise<void>
  close(): Promise<void>
}

function isPluginFolderName(name: string): boolean {
  return !name.startsWith('.') && name !== 'node_modules'
}

export function createPluginLoader(options: PluginLoaderOptions): PluginLoader {
  const dirs = options.dirs.map((dir) => resolve(dir))
  const logger = options.logger ?? silentLogger
  const debounceMs = Math.max(options.debounceMs ?? DEFAULT_WATCH_DEBOUNCE_MS, MIN_WATCH_DEBOUNCE_MS)
  const owned = new Map<string, string[]>()
  const latest = new Map<string, PluginReport>()
  const dirty = new Set<string>()
  let version = 0
  let queue: Promise<unknown> = Promise.resolve()
  let timer: NodeJS.Timeout | undefined
  let watcher: FSWatcher | undefined

  const publish = (report: PluginReport) => {
    latest.set(report.plugin, report)
    if (report.status === 'failed')
      logger.warn('plugin skipped', { plugin: report.file, reason: report.error })
    for (const skip of report.skipped)
      logger.warn('plugin toolset skipped', { plugin: report.file, toolset: skip.name, reason: skip.reason })
    if (report.status === 'loaded')
      logger.info('plugin loaded', { plugin: report.file, toolsets: report.toolsets })
    options.onReport?.(report)
    return report
  }

  const unload = (folder: string) => {
    for (const name of owned.get(folder) ?? []) options.registry.remove(name)
    owned.delete(folder)
  }

  const loadFolder = async (folder: string): Promise<PluginReport> => {
    unload(folder)
    if (!existsSync(folder) || !statSync(folder).isDirectory()) {
      return publish({ plugin: folder, file: folder, status: 'removed', toolsets: [], skipped: [] })
    }
    const result = await loadPlugin(folder, ++version, options.api)
    if (!result.ok)
      return publish({
        plugin: folder,
        file: result.file,
        status: 'failed',
        toolsets: [],
        skipped: [],
        error: result.error,
      })
    const added: string[] = []
    const skipped: PluginReport['skipped'] = []
    for (const toolset of result.toolsets) {
      const outcome = options.registry.add(toolset, `plugin ${folder}`)
      if (outcome.added) added.push(toolset.name)
      else skipped.push({ name: toolset.name, reason: outcome.reason })
    }
    owned.set(folder, added)
    return publish({ plugin: folder, file: result.file, status: 'loaded', toolsets: added, skipped })
  }

  const enqueue = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work)
    queue = next.catch(() => undefined)
    return next
  }

  const pluginFolderOf = (path: string): string | undefined => {
    for (const dir of dirs) {
      const rel = relative(dir, path)
      if (rel === '' || rel.startsWith('..')) continue
      const [first] = rel.split(sep)
      return first && isPluginFolderName(first) ? join(dir, first) : undefined
    }
    return undefined
  }

  const flush = () => {
    timer = undefined
    const folders = [...dirty]
    dirty.clear()
    void enqueue(async () => {
      for (const folder of folders) await loadFolder(folder)
    })
  }

  return {
    load: () =>
      enqueue(async () => {
        const reports: PluginReport[] = []
        for (const dir of dirs) {
          const entries = await readdir(dir, { withFileTypes: true }).catch(() => [])
          const folders = entries
            .filter((e) => e.isDirectory() && isPluginFolderName(e.name))
            .map((e) => e.name)
            .sort()
          for (const name of folders) reports.push(await loadFolder(join(dir, name)))
        }
        return reports
      }),
    async watch() {
      if (watcher) return
      for (const dir of dirs) await mkdir(dir, { recursive: true })
      const { watch } = await import('chokidar')
      watcher = watch([...dirs], {
        ignoreInitial: true,
        depth: 4,
        ignored: (path: string) => path.split(sep).includes('node_modules'),
      })
      watcher.on('all', (_event, path) => {
        const folder = pluginFolderOf(path)
        if (!folder) return
        dirty.add(folder)
        if (timer) clearTimeout(timer)
        timer = setTimeout(flush, debounceMs)
      })
      await new Promise<void>((ready) => watcher?.once('ready', () => ready()))
    },
    reports: () => [...latest.values()],
    idle: () => queue.then(() => undefined),
    async close() {
      if (timer) clearTimeout(timer)
      timer = undefined
      dirty.clear()
      await watcher?.close()
      watcher = undefined
      await queue
    },
  }
}
