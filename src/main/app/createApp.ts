import { type Events, events, type HostKind, routes } from '../../shared/ipc'
import { attachmentHandlers, type ChatService, chatHandlers, createAppChat, shareConversions } from '../agent'
import {
  type AutomationRunner,
  automationHandlers,
  createAutomationRunner,
  runNotification,
} from '../automations'
import { type BrowserOverrides, browserExecutable, browserHandlers } from '../browser'
import { calendarHandlers } from '../calendar'
import type { Converter } from '../convert'
import { composeCore } from '../core'
import { documentHandlers, type PdfPrinter } from '../documents'
import { emailHandlers, watchMailFolder } from '../email'
import { evalHandlers } from '../eval'
import { knowledgeHandlers } from '../knowledge'
import { ollamaHandlers, type ProviderService, providerHandlers, releaseLocalModel } from '../llm'
import { mcpHandlers } from '../mcp'
import { memoryHandlers } from '../memory'
import { type CatalogueEntry, createModelManager, modelHandlers } from '../models'
import {
  createEventBus,
  createIpcRouter,
  createLogger,
  createNoticeCenter,
  type DesktopNotifier,
  type EventBus,
  ensureWritableDir,
  type IpcRouter,
  type Logger,
  type NoticeCenter,
  noticeNotifier,
} from '../platform'
import { createPreviewHandlers } from '../preview'
import type { SettingsService, SettingsStorageOptions } from '../settings'
import { type ToolsHost, toolsHandlers } from '../toolsHost'
import { createAppVoice, voiceHandlers } from '../voice'
import { workspaceHandlers } from '../workspace'
import { appHandlers } from './appHandlers'
import { activeLocalModel, useLocalModel } from './localModelChoice'
import { modelChoices } from './modelChoices'
import { settingsHandlers } from './settingsHandlers'
import { type PickFolder, uiHandlers } from './uiHandlers'

export interface AppOptions {
  host: HostKind
  dataDir: string
  /** The `--workspace` flag. Without it: BUREAU_WORKSPACE, then the setting `workspace.folder`, then ~/Bureau. */
  workspaceDir?: string
  logger?: Logger
  /** How settings and secrets are stored: JSON files written with atomically and an AES key file by default; the desktop shell passes electron-store and safeStorage. */
  settings?: SettingsStorageOptions
  /** `serve --tools-debounce-ms`: wins over the setting `tools.watchDebounceMs`. */
  toolsDebounceMs?: number
  /** `--browser-cdp`, `--browser-executable`, `--allow-local-network`: win over the browser settings. */
  browser?: BrowserOverrides
  /** The desktop shell's way to open (or reveal) a file with the system app; absent in the web host. */
  openPath?: (hostPath: string, reveal: boolean) => Promise<string | undefined>
  /** The desktop shell's native folder picker (`ui.pickFolder`); absent in the web host. */
  pickFolder?: PickFolder
  /**
   * The desktop shell's system notifications, given the headless host's notifier (the notice center) to
   * fall back on; without it, notifications are notices.
   */
  notifier?: (fallback: DesktopNotifier) => DesktopNotifier
  /** The desktop shell's `printToPDF`; the web host and the CLI print documents in headless Chromium. */
  printPdf?: PdfPrinter
  /** Tests: the model catalogue and the fetch the model downloads use (default models.json, global fetch). */
  models?: { catalogue?: () => Promise<CatalogueEntry[]>; fetch?: typeof fetch }
  /** `--no-index`: no background indexing of the workspace this run (the setting `knowledge.enabled` stays). */
  noIndex?: boolean
  /**
   * `background` (default): the runner starts with the app (schedules, file and mail triggers, missed
   * runs); `manual`: runs only when asked (`bureau automations run`, `run-pending`).
   */
  automations?: 'background' | 'manual'
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
  /** The one automations runner (schedules, file and mail triggers, run now). */
  readonly automations: AutomationRunner
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
  const notices = createNoticeCenter(
    (notice) => bus.emit('app.notice', notice),
    50,
    (id) => bus.emit('app.noticeCleared', { id }),
  )
  const disposers: Array<() => Promise<void> | void> = []

  const core = await composeCore({
    dataDir: options.dataDir,
    ...(options.workspaceDir ? { workspaceDir: options.workspaceDir } : {}),
    logger,
    notify: (notice) => notices.notify(notice),
    clearNotice: (id) => notices.clear(id),
    ...(options.settings ? { settings: options.settings } : {}),
    ...(options.browser ? { browser: options.browser } : {}),
    watchPlugins: true,
    ...(options.toolsDebounceMs !== undefined ? { toolsDebounceMs: options.toolsDebounceMs } : {}),
    ...(options.printPdf ? { printPdf: options.printPdf } : {}),
    onMcpChange: (status) => bus.emit('mcp.changed', status),
    onWorkspaceChange: (event) =>
      bus.emit('workspace.changed', { paths: event.changes.map((change) => change.path) }),
    indexing: options.noIndex ? 'off' : 'background',
    onKnowledgeStatus: throttledStatus((status) => bus.emit('knowledge.status', status)),
  })
  disposers.push(() => core.close())
  disposers.push(bus.subscribe(trackChatRuns((active) => core.knowledge.setChatActive(active))))
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
    memory: core.memory,
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
  const fallbackNotifier = noticeNotifier(notices)
  const notifier = options.notifier?.(fallbackNotifier) ?? fallbackNotifier
  const automations = createAutomationRunner({
    store: core.automations.store,
    executor: () => chat,
    workspace: workspace.get,
    mail: async (trigger, onMessage, onError) =>
      watchMailFolder(core.email, { rule: trigger, onMail: onMessage, onError }),
    onRunEnded: (run, automation) => {
      bus.emit('automations.runEnded', { name: automation.name, run, notified: notifier.native })
      if (run.status !== 'running') notifier.notify(runNotification(automation, run))
    },
    onProblem: (message) => notices.notify({ level: 'warning', message }),
    onChange: () => bus.emit('automations.changed', {}),
    logger: logger.child('automations'),
  })
  core.automations.attach(automations)
  // Before the chat service is disposed: a run stopped here is saved as interrupted.
  disposers.push(() => automations.stop())

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
      ...calendarHandlers(core.calendar),
      ...chatHandlers(chat),
      ...attachmentHandlers({
        converter: attachmentConverter,
        budgetChars: () => settings.get().attachments.budgetChars,
      }),
      ...voiceHandlers(voice),
      ...createPreviewHandlers({ workspace: workspace.get }),
      ...workspaceHandlers({
        workspace: workspace.get,
        ...(options.openPath && { openPath: options.openPath }),
      }),
      ...uiHandlers({ ...(options.pickFolder && { pickFolder: options.pickFolder }) }),
      ...knowledgeHandlers(() => core.knowledge),
      ...memoryHandlers({ store: core.memory, workspaceRoot: () => workspace.get().root }),
      ...automationHandlers(core.automations),
      ...documentHandlers({
        chat,
        workspace: workspace.get,
        browser: {
          executablePath: browserExecutable(browser),
          ...(options.printPdf ? { printPdf: options.printPdf } : {}),
        },
      }),
    },
    { onHandlerError: (route, error) => logger.error('handler failed', { route, error: String(error) }) },
  )

  // After the routes exist and the host can answer: indexing never delays start-up.
  core.knowledge.start()
  if ((options.automations ?? 'background') === 'background')
    void automations
      .start()
      .catch((error) => logger.error('automations did not start', { error: String(error) }))

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
    automations,
    async dispose() {
      for (const dispose of disposers.reverse()) await dispose()
    },
  }
}

/** Runs under way, from the chat events: indexing is throttled while any runs. */
function trackChatRuns(onActive: (active: boolean) => void) {
  const running = new Set<string>()
  return (event: string, payload: unknown) => {
    const runId = (payload as { runId?: unknown } | undefined)?.runId
    if (typeof runId !== 'string') return
    if (event === 'agent.done') running.delete(runId)
    else if (event === 'agent.step' || event === 'chat.delta') running.add(runId)
    else return
    onActive(running.size > 0)
  }
}

/** At most one progress event per 250 ms (the last one always arrives). */
function throttledStatus<T>(emit: (status: T) => void): (status: T) => void {
  let last = 0
  let timer: NodeJS.Timeout | undefined
  let pending: T | undefined
  return (status) => {
    pending = status
    const wait = 250 - (Date.now() - last)
    if (wait <= 0) {
      last = Date.now()
      emit(status)
      return
    }
    if (timer) return
    timer = setTimeout(() => {
      timer = undefined
      last = Date.now()
      if (pending !== undefined) emit(pending)
    }, wait)
    timer.unref()
  }
}
