import type { AppNotice } from '../../shared/ipc'
import type { BrowserEnvironment } from '../browser'
import { type Converter, type ConvertLifetime, setConvertLifetime } from '../convert'
import { type BureauCore, composeCore } from '../core'
import type { KnowledgeService, KnowledgeStatus } from '../knowledge'
import type { ProviderService } from '../llm'
import { type Logger, silentLogger } from '../platform'
import type { SettingsService } from '../settings'
import type { ToolRegistry } from '../tools'
import type { Workspace } from '../workspace'
import { type BrowserCliOptions, browserOverrides } from './browserOptions'

export interface CliToolEnvironment {
  settings: SettingsService
  registry: ToolRegistry
  /** The providers of the settings (and BUREAU_* overrides), opened on first use. */
  providers(): Promise<ProviderService>
  /** One converter for the run, shared by attachments and the `convert` toolset (cache in the data folder). */
  converter: Converter
  /** The workspace, opened on first use (a command that never touches files creates no folder). */
  workspace(): Workspace
  /** The knowledge index of the workspace; a search first indexes what changed (no background indexing). */
  knowledge: KnowledgeService
  close(): Promise<void>
}

/**
 * What `bureau tool`, `bureau chat` and `bureau eval` share with the app: the app's own composition
 * (`composeCore`: settings, providers, converter, toolsets with plugins, workspace) without the plugin watcher.
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
  /** `bureau index build` prints progress from it. */
  onKnowledgeStatus?: (status: KnowledgeStatus) => void
  /** Connect the MCP servers of Settings and mcp.json first, so their toolsets are offered. */
  mcp?: boolean
  /**
   * How long the command converts (`convert/lifetime.ts`): `command` for one tool call or one agent run,
   * which end before V8's optimizing compiler would repay itself on PDFium (a first PDF ~50-80 ms slower,
   * ~0.45 s more CPU); the default, `session`, for stdin sessions, evals, index builds and MCP serving.
   */
  lifetime?: ConvertLifetime
}): Promise<CliToolEnvironment> {
  if (options.lifetime) setConvertLifetime(options.lifetime)
  const overrides = browserOverrides(options.browser)
  const core: BureauCore = await composeCore({
    dataDir: options.dataDir,
    ...(options.workspace ? { workspaceDir: options.workspace } : {}),
    logger: options.logger,
    notify: options.notify ?? ((notice) => options.logger.warn(notice.message)),
    ...(options.env ? { env: options.env } : {}),
    ...(overrides ? { browser: overrides } : {}),
    ...(options.browserEnvironment ? { browserEnvironment: options.browserEnvironment } : {}),
    watchPlugins: false,
    // Plugin problems reach the user as notices; the loader's own log lines would repeat them.
    ...(options.notify ? { pluginLogger: silentLogger } : {}),
    indexing: 'on-demand',
    ...(options.onKnowledgeStatus ? { onKnowledgeStatus: options.onKnowledgeStatus } : {}),
  })
  if (options.mcp) await core.mcp.start()
  return {
    settings: core.settings,
    registry: core.tools.registry,
    providers: core.providers,
    converter: core.converter,
    workspace: core.workspace.get,
    knowledge: core.knowledge,
    close: () => core.close(),
  }
}
