import { join } from 'node:path'
import type { AppNotice } from '../../shared/ipc'
import type { BrowserEnvironment } from '../browser'
import { type Converter, createAppConverter } from '../convert'
import type { ProviderService } from '../llm'
import { type Logger, silentLogger } from '../logging'
import { openSettings, type SettingsService } from '../settings'
import type { ToolRegistry } from '../tools'
import { createToolsHost } from '../toolsHost'
import { createWorkspace, type Workspace } from '../workspace'
import { type BrowserCliOptions, cliBrowserEnvironment } from './browserOptions'

export interface CliToolEnvironment {
  settings: SettingsService
  registry: ToolRegistry
  /** The providers of the settings (and BUREAU_* overrides), opened on first use. */
  providers(): Promise<ProviderService>
  /** One converter for the run, shared by attachments and the `convert` toolset (cache in the data folder). */
  converter: Converter
  /** The workspace, opened on first use (a command that never touches files creates no folder). */
  workspace(): Workspace
  close(): Promise<void>
}

/**
 * What `bureau tool` and `bureau chat` share with the app: the settings of the data folder, the workspace
 * they name (`--workspace`, else BUREAU_WORKSPACE, the setting, ~/Bureau), and the built-in and plugin
 * toolsets (including the settings' extra tools folder), without the app's plugin watcher.
 */
export async function openCliToolEnvironment(options: {
  dataDir: string
  workspace?: string
  browser: BrowserCliOptions
  /** Replaces the browser of the settings and flags (`bureau eval` drives its own headless Chromium). */
  browserEnvironment?: (settings: SettingsService) => BrowserEnvironment
  logger: Logger
  notify?: (notice: AppNotice) => void
  env?: NodeJS.ProcessEnv
}): Promise<CliToolEnvironment> {
  const env = options.env ?? process.env
  const settings = await openSettings({
    dataDir: options.dataDir,
    env: (name) => env[name],
    ...(options.notify ? { notify: options.notify } : {}),
    ...(options.workspace ? { workspaceOverride: options.workspace } : {}),
  })
  let providers: Promise<ProviderService> | undefined
  const openProviders = () => {
    // Loaded on first use: `bureau tool files list` needs no provider.
    providers ??= import('../llm').then(({ createSettingsProviders }) =>
      createSettingsProviders(settings, {
        dataDir: options.dataDir,
        env,
        notify: options.notify ?? ((notice) => options.logger.warn(notice.message)),
      }),
    )
    return providers
  }
  const converter = createAppConverter({
    cacheDir: join(options.dataDir, 'cache', 'convert'),
    vision: {
      mode: () => settings.get().attachments.vision,
      client: async () => (await openProviders()).client(),
    },
  })
  const tools = await createToolsHost({
    dataDir: options.dataDir,
    builtins: {
      browser:
        options.browserEnvironment?.(settings) ??
        cliBrowserEnvironment(options.dataDir, options.browser, settings),
      convert: { converter: () => converter },
    },
    extraFolder: settings.get().tools.extraFolder,
    watch: false,
    // Plugin problems reach the user as notices; the loader's own log lines would repeat them.
    logger: options.notify ? silentLogger : options.logger.child('tools'),
    ...(options.notify ? { notify: options.notify } : {}),
  })
  let workspace: Workspace | undefined
  return {
    settings,
    registry: tools.registry,
    providers: openProviders,
    converter,
    workspace: () => {
      workspace ??= createWorkspace({
        root: settings.workspaceDir().dir,
        backupsToKeep: settings.get().workspace.backupsToKeep,
        onWarning: (message) => options.logger.warn(message),
      })
      return workspace
    },
    async close() {
      await workspace?.close()
      await tools.close()
      await converter.dispose()
    },
  }
}
