import { type Events, events, type HostKind, routes } from '../../shared/ipc'
import { attachmentHandlers, type ChatService, chatHandlers, createAppChat, shareConversions } from '../agent'
import { type BrowserOverrides, browserHandlers } from '../browser'
import type { Converter } from '../convert'
import { composeCore } from '../core'
import { emailHandlers } from '../email'
import { evalHandlers } from '../eval'
import { createEventBus, createIpcRouter, type EventBus, type IpcRouter } from '../ipc'
import { ollamaHandlers, type ProviderService, providerHandlers, releaseLocalModel } from '../llm'
import { createLogger, type Logger } from '../logging'
import { mcpHandlers } from '../mcp'
import { type CatalogueEntry, createModelManager, modelHandlers } from '../models'
import { createNoticeCenter, type NoticeCenter } from '../notices'
import { ensureWritableDir } from '../paths'
import { type SettingsService, type SettingsStorageOptions, settingsHandlers } from '../settings'
import { type ToolsHost, toolsHandlers } from '../toolsHost'
import { createAppVoice, voiceHandlers } from '../voice'
import { workspaceHandlers } from '../workspace'
import { appHandlers } from './appHandlers'
import { documentHandlers } from './documentHandlers'
import { activeLocalModel, useLocalModel } from './localModelChoice'
import { modelChoices } from './modelChoices'
import { type PickFolder, uiHandlers } from './uiHandlers'

export interface AppOptions {
  host: HostKind
  dataDir: string
  /** The `--workspace` flag. Without it: BUREAU_WORKSPACE, then the setting `workspace.folder`, then ~/Bureau. */
  workspaceDir?: string
  logger?: Logger
  /** How settings and secrets are stored: conf and an AES key file by default; the desktop shell passes electron-store and safeStorage. */
  settings?: SettingsStorageOptions
  /** `serve --tools-debounce-ms`: wins over the setting `tools.watchDebounceMs`. */
  toolsDebounceMs?: number
  /** `--browser-cdp`, `--browser-executable`, `--allow-local-network`: win over the browser settings. */
  browser?: BrowserOverrides
  /** The desktop shell's way to open (or reveal) a file with the system app; absent in the web host. */
  openPath?: (hostPath: string, reveal: boolean) => Promise<string | undefined>
  /** The desktop shell's native folder picker (`ui.pickFolder`); absent in the web host. */
  pickFolder?: PickFolder
  /** Tests: the model catalogue and the fetch the model downloads use (default models.json, global fetch). */
  models?: { catalogue?: () => Promise<CatalogueEntry[]>; fetch?: typeof fetch }
}

/** The running app as every transport sees it. */
export interface BureauApp {
  readonly options: AppOptions
  readonly router: IpcRouter
  readonly events: EventBus<Events>
  readonly notices: NoticeCenter
  readonly logger: Logger
  readonly settings: SettingsService
  /** LLM providers: presets, clients, `providers.*` routes. */
  readonly providers: ProviderService
  /** Toolsets: built-ins plus plugins (shipped `tools/`, `<data-dir>/tools`, `tools.extraFolder`), hot-reloaded. */
  readonly tools: ToolsHost
  /**
   * The one converter of the app: attachments and the `convert` toolset share its cache
   * (`<data-dir>/cache/convert`), OCR worker and vision choice (setting `attachments.vision`, active provider).
   */
  readonly converter: Converter
  /** Agent runs behind chat.*, conversations in `<data-dir>/conversations`, `streamDetached` for the bridge. */
  readonly chat: ChatService
  /** The workspace folder in effect at start-up (see `settings.workspaceDir()` for where it came from). */
  readonly workspaceDir: string
  dispose(): Promise<void>
}

/**
 * The composition root: builds every service once, wires their dependencies explicitly
 * and registers their IPC handlers. Transports (Electron, HTTP, CLI) only talk to the result.
 */
export async function createApp(options: AppOptions): Promise<BureauApp> {
  const logger = options.logger ?? createLogger()
  await ensureWritableDir(options.dataDir, 'data folder')

  const bus = createEventBus(events, {
    onInvalid: (event, error) => logger.error('dropped an invalid event', { event, error: String(error) }),
  })
  const notices = createNoticeCenter((notice) => bus.emit('app.notice', notice))
  const disposers: Array<() => Promise<void> | void> = []

  const core = await composeCore({
    dataDir: options.dataDir,
    ...(options.workspaceDir ? { workspaceDir: options.workspaceDir } : {}),
    logger,
    notify: (notice) => notices.notify(notice),
    ...(options.settings ? { settings: options.settings } : {}),
    ...(options.browser ? { browser: options.browser } : {}),
    watchPlugins: true,
    ...(options.toolsDebounceMs !== undefined ? { toolsDebounceMs: options.toolsDebounceMs } : {}),
    onWorkspaceChange: (event) =>
      bus.emit('workspace.changed', { paths: event.changes.map((change) => change.path) }),
  })
  disposers.push(() => core.close())
  const { settings, converter, browser, tools, workspace } = core
  // Servers connect in the background: the window opens at once, each server's tools appear when listed.
  void core.mcp.start()
  disposers.push(settings.onChange(({ publicSettings }) => bus.emit('settings.changed', publicSettings)))
  const workspaceDir = settings.workspaceDir().dir
  const providers = await core.providers()
  await ensureWritableDir(workspaceDir, 'workspace folder')
  // The composer's pre-send check and Send share conversions (one per file).
  const attachmentConverter = shareConversions(converter)
  const chat = createAppChat({
    dataDir: options.dataDir,
    settings,
    model: (choice) => providers.clientFor(choice),
    toolsets: () => tools.registry,
    workspace: workspace.get,
    converter: attachmentConverter,
    events: bus,
    logger: logger.child('agent'),
  })
  disposers.push(() => chat.dispose())
  const voice = createAppVoice({
    dataDir: options.dataDir,
    settings,
    provider: () => providers.resolve(),
    chat,
    events: bus,
    logger: logger.child('voice'),
  })
  disposers.push(() => voice.dispose())

  const models = createModelManager({
    dataDir: options.dataDir,
    activeLocalModel: () => activeLocalModel(providers),
    use: (id) => useLocalModel(providers, settings, id),
    emit: (progress) => bus.emit('models.progress', progress),
    release: releaseLocalModel,
    ...options.models,
  })
  disposers.push(() => models.dispose())

  const router = createIpcRouter(
    routes,
    {
      ...appHandlers({ host: options.host, notices }),
      ...settingsHandlers(settings),
      ...providerHandlers(providers),
      'providers.models': () => modelChoices({ providers, localModels: () => models.list() }),
      ...evalHandlers({ dataDir: options.dataDir }),
      ...modelHandlers(models),
      ...ollamaHandlers({
        url: () => settings.get().localModels.ollamaUrl,
        emit: (progress) => bus.emit('ollama.progress', progress),
      }),
      ...toolsHandlers(tools),
      ...mcpHandlers({ host: core.mcp, settings }),
      ...browserHandlers({
        env: browser,
        saveEndpoint: (endpoint) => settings.update({ browser: { mode: 'cdp', cdpEndpoint: endpoint } }),
      }),
      ...emailHandlers(core.email),
      ...chatHandlers(chat),
      ...attachmentHandlers({
        converter: attachmentConverter,
        budgetChars: () => settings.get().attachments.budgetChars,
      }),
      ...voiceHandlers(voice),
      ...workspaceHandlers({
        workspace: workspace.get,
        ...(options.openPath && { openPath: options.openPath }),
      }),
      ...uiHandlers({ ...(options.pickFolder && { pickFolder: options.pickFolder }) }),
      ...documentHandlers({
        chat,
        workspace: workspace.get,
        browser: {
          executablePath: async () =>
            browser.overrides?.executablePath ?? (await browser.settings()).executablePath,
        },
      }),
    },
    { onHandlerError: (route, error) => logger.error('handler failed', { route, error: String(error) }) },
  )

  return {
    options,
    router,
    events: bus,
    notices,
    logger,
    settings,
    providers,
    tools,
    converter,
    chat,
    workspaceDir,
    async dispose() {
      for (const dispose of disposers.reverse()) await dispose()
    },
  }
}
