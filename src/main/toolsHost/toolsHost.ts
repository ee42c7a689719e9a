import { basename, dirname } from 'node:path'
import type { AppNotice, PluginStatus } from '../../shared/ipc'
import type { Logger } from '../platform'
import { silentLogger } from '../platform'
import {
  createPluginLoader,
  createToolRegistry,
  type PluginReport,
  pluginDirs,
  redactHostPaths,
  type ToolRegistry,
} from '../tools'
import { type BuiltinToolsetOptions, loadBuiltinToolsets } from './builtinToolsets'

export interface ToolsHostOptions {
  dataDir: string
  /** What built-in toolsets need from the host (the browser environment for `web`). */
  builtins?: BuiltinToolsetOptions
  /** Setting `tools.extraFolder`: one more folder of plugins. */
  extraFolder?: string | null
  /** Setting `tools.watchDebounceMs` (or `serve --tools-debounce-ms`). */
  debounceMs?: number
  /** Hot-add and reload plugins while the host runs (default true). */
  watch?: boolean
  logger?: Logger
  /** Plugin problems as notices for the UI (no host paths). */
  notify?: (notice: AppNotice) => void
}

/** The host's toolsets: built-ins plus plugins, kept current by the watcher. */
export interface ToolsHost {
  readonly registry: ToolRegistry
  /** The `tools.plugins` route: plugin folders by name, never a host path. */
  plugins(): PluginStatus[]
  close(): Promise<void>
}

function folderName(report: PluginReport): string {
  return `${basename(dirname(report.plugin))}/${basename(report.plugin)}`
}

function toStatus(report: PluginReport): PluginStatus {
  const status: PluginStatus = {
    plugin: basename(report.plugin),
    status: report.status,
    toolsets: report.toolsets,
    skipped: report.skipped.map((s) => ({ name: s.name, reason: redactHostPaths(s.reason) })),
  }
  return report.error ? { ...status, error: redactHostPaths(report.error) } : status
}

function noticeFor(report: PluginReport): AppNotice | undefined {
  const name = folderName(report)
  if (report.status === 'failed') {
    return {
      level: 'warning',
      id: `plugin:${name}`,
      message: `Plugin ${name} was skipped: ${redactHostPaths(report.error ?? 'unknown error')}`,
    }
  }
  if (report.skipped.length > 0) {
    const names = report.skipped.map((s) => s.name).join(', ')
    return {
      level: 'info',
      id: `plugin:${name}`,
      message: `Plugin ${name}: toolset ${names} skipped, the name is already provided.`,
    }
  }
  return undefined
}

/** Builds the registry (built-ins, then plugins from the shipped, data-dir and extra folders) and watches. */
export async function createToolsHost(options: ToolsHostOptions): Promise<ToolsHost> {
  const logger = options.logger ?? silentLogger
  const registry = createToolRegistry()
  for (const toolset of await loadBuiltinToolsets(options.builtins)) registry.add(toolset)
  const dirs = pluginDirs(options.dataDir)
  if (options.extraFolder) dirs.push(options.extraFolder)
  const loader = createPluginLoader({
    registry,
    dirs,
    debounceMs: options.debounceMs,
    logger: logger.child('plugins'),
    onReport: (report) => {
      const notice = noticeFor(report)
      if (notice) options.notify?.(notice)
    },
  })
  await loader.load()
  if (options.watch !== false) {
    await loader.watch().catch((error: unknown) => {
      logger.warn('plugin watcher could not start; new plugins load at the next start', {
        error: String(error),
      })
    })
  }
  return {
    registry,
    plugins: () => loader.reports().map(toStatus),
    close: () => loader.close(),
  }
}

/** IPC handlers of the tools service. */
export function toolsHandlers(host: ToolsHost) {
  return {
    'tools.plugins': () => host.plugins(),
    'tools.toolsets': () =>
      host.registry.list().map((toolset) => ({
        name: toolset.name,
        summary: toolset.summary,
        methods: Object.keys(toolset.methods).length,
      })),
  }
}
