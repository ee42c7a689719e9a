import { join } from 'node:path'
import type { AppNotice, McpServerStatus } from '../../shared/ipc'
import { calendarPasswordSecret, emailPasswordSecret } from '../../shared/settings'
import type { BrowserEnvironment, BrowserOverrides } from '../browser'
import type { CalendarEnvironment } from '../calendar'
import { type Converter, createAppConverter } from '../convert'
import type { PdfPrinter } from '../documents'
import type { EmailEnvironment } from '../email'
import {
  createKnowledgeService,
  type KnowledgeService,
  providerEmbedder,
  sessionKnowledge,
} from '../knowledge'
import type { LocalEmbeddingSource, ProviderService } from '../llm'
import { createMcpHost, type McpHost } from '../mcp'
import { type MemoryStore, openMemoryStore } from '../memory'
import type { Logger } from '../platform'
import { openSettings, type SettingsService, type SettingsStorageOptions } from '../settings'
import { createToolsHost, type ToolsHost } from '../toolsHost'
import { type CurrentWorkspace, currentWorkspace, type WorkspaceChanged } from '../workspace'

export interface CoreOptions {
  dataDir: string
  /** The `--workspace` flag. Without it: BUREAU_WORKSPACE, then the setting `workspace.folder`, then ~/Bureau. */
  workspaceDir?: string
  logger: Logger
  notify: (notice: AppNotice) => void
  /** How settings and secrets are stored (JSON files written with atomically and an AES key file unless the desktop shell says otherwise). */
  settings?: SettingsStorageOptions
  /** The environment the `BUREAU_*` overrides come from; default `process.env`. */
  env?: NodeJS.ProcessEnv
  /** `--browser-cdp`, `--browser-executable`, `--allow-local-network`: win over the browser settings. */
  browser?: BrowserOverrides
  /** Replaces the browser of the settings and flags (`bureau eval` drives its own headless Chromium). */
  browserEnvironment?: (settings: SettingsService) => BrowserEnvironment
  /** Hot-add and reload plugins while running: the app does, one-shot CLI commands do not. */
  watchPlugins: boolean
  /** `serve --tools-debounce-ms`: wins over the setting `tools.watchDebounceMs`. */
  toolsDebounceMs?: number
  /** The plugin loader's own log (the CLI silences it when plugin problems already reach it as notices). */
  pluginLogger?: Logger
  /** Batches of changed workspace paths (the app forwards them to the UI). */
  onWorkspaceChange?: (event: WorkspaceChanged) => void
  /**
   * `background`: the app indexes the workspace after start-up and on every change (unless the setting
   * `knowledge.enabled` is off); `on-demand` (the CLI default): a search first indexes what changed;
   * `off` (`--no-index`): nothing is indexed, searches read what is on disk.
   */
  indexing?: 'background' | 'on-demand' | 'off'
  onKnowledgeStatus?: (status: import('../knowledge').KnowledgeStatus) => void
  /** The desktop shell's PDF printer (Electron `printToPDF`); without it documents print in headless Chromium. */
  printPdf?: PdfPrinter
  /** An MCP server's state changed. */
  onMcpChange?: (status: McpServerStatus[]) => void
}

/** The services every entry point shares: the app adds chat, voice and routes; the CLI uses them as they are. */
export interface BureauCore {
  readonly settings: SettingsService
  /** Providers of the settings and `BUREAU_*` overrides, opened on first use (`bureau tool` needs none). */
  providers(): Promise<ProviderService>
  /** One converter, shared by attachments and the `convert` toolset (cache in `<data-dir>/cache/convert`). */
  readonly converter: Converter
  readonly browser: BrowserEnvironment
  /** The e-mail accounts of the settings with their passwords, for the `email` toolset and Settings. */
  readonly email: EmailEnvironment
  /** The user's zone and the CalDAV accounts with their passwords, for the `calendar` toolset and Settings. */
  readonly calendar: CalendarEnvironment
  /** Built-in toolsets plus plugins (shipped `tools/`, `<data-dir>/tools`, `tools.extraFolder`). */
  readonly tools: ToolsHost
  /** The workspace of the folder in effect, opened on first use (a command that never touches files creates none). */
  readonly workspace: CurrentWorkspace
  /** The knowledge index of the current workspace (`<data-dir>/index/<workspace-id>`), behind the `knowledge` toolset. */
  readonly knowledge: KnowledgeService
  /** MCP servers of Settings and `<data-dir>/mcp.json`, each a toolset once connected (`mcp.start()`). */
  readonly mcp: McpHost
  /** The user's memories (`<data-dir>/memories.json`), behind the `memory` toolset, the prompt block and Settings → Memory. */
  readonly memory: MemoryStore
  close(): Promise<void>
}

/** Builds the shared services once, in dependency order; the one wiring behind `createApp` and every CLI command. */
export async function composeCore(options: CoreOptions): Promise<BureauCore> {
  const env = options.env ?? process.env
  const settings = await openSettings({
    ...options.settings,
    dataDir: options.dataDir,
    env: (name) => env[name],
    notify: options.notify,
    ...(options.workspaceDir ? { workspaceOverride: options.workspaceDir } : {}),
  })
  let providers: Promise<ProviderService> | undefined
  const openProviders = () => {
    // Loaded on first use: `bureau tool files list` needs no provider and no LLM client code.
    providers ??= import('../llm').then(({ createSettingsProviders }) =>
      createSettingsProviders(settings, {
        dataDir: options.dataDir,
        env,
        notify: options.notify,
        clientOptions: { logger: options.logger },
      }),
    )
    return providers
  }
  let localEmbeddings: Promise<LocalEmbeddingSource> | undefined
  const localVectors: LocalEmbeddingSource = {
    // Like the providers: llama.cpp is imported only when the index first asks a local model.
    embed: async (model, texts, signal) => {
      localEmbeddings ??= import('../llm').then(({ settingsLocalEmbeddings }) =>
        settingsLocalEmbeddings(settings, options.dataDir),
      )
      return (await localEmbeddings).embed(model, texts, signal)
    },
  }
  const converter = createAppConverter({
    cacheDir: join(options.dataDir, 'cache', 'convert'),
    vision: {
      mode: () => settings.get().attachments.vision,
      client: async () => (await openProviders()).client(),
    },
  })
  const browser = options.browserEnvironment?.(settings) ?? {
    dataDir: options.dataDir,
    settings: () => settings.get().browser,
    ...(options.browser ? { overrides: options.browser } : {}),
    logger: options.logger.child('browser'),
  }
  const email: EmailEnvironment = {
    settings: () => settings.get().email,
    password: (account) => settings.getSecret(emailPasswordSecret(account)),
  }
  const memory = openMemoryStore({
    dataDir: options.dataDir,
    // The knowledge settings' embeddings choose memories by meaning too (off: words only).
    embedder: providerEmbedder(() => settings.get().knowledge, openProviders, localVectors),
    onDamaged: (movedTo) =>
      options.notify({
        level: 'warning',
        message: `memories.json could not be read; it was kept as ${movedTo} and memory starts empty.`,
      }),
  })
  const calendar: CalendarEnvironment = {
    settings: () => settings.get().calendar,
    password: (account) => settings.getSecret(calendarPasswordSecret(account)),
  }
  const toolSettings = settings.get().tools
  const tools = await createToolsHost({
    dataDir: options.dataDir,
    builtins: {
      browser,
      convert: { converter: () => converter },
      knowledge: { knowledge: (session) => sessions.forWorkspace(session) },
      email,
      memory: { memory: () => memory },
      calendar,
      ...(options.printPdf ? { documents: { printPdf: options.printPdf } } : {}),
    },
    extraFolder: toolSettings.extraFolder,
    debounceMs: options.toolsDebounceMs ?? toolSettings.watchDebounceMs,
    watch: options.watchPlugins,
    logger: options.pluginLogger ?? options.logger.child('tools'),
    notify: options.notify,
  })
  const indexing = options.indexing ?? 'on-demand'
  const onChange = options.onWorkspaceChange
  const workspace = currentWorkspace({
    root: () => settings.workspaceDir().dir,
    backupsToKeep: () => settings.get().workspace.backupsToKeep,
    ...(onChange
      ? {
          onChange: (event: WorkspaceChanged) => {
            onChange(event)
            knowledge.onWorkspaceChange(event)
          },
        }
      : {}),
    onWarning: (message) => options.logger.warn(message),
  })
  const knowledge: KnowledgeService = createKnowledgeService({
    dataDir: options.dataDir,
    workspace: workspace.get,
    converter,
    settings: () => settings.get().knowledge,
    embedder: providerEmbedder(() => settings.get().knowledge, openProviders, localVectors),
    disabled: indexing !== 'background',
    syncBeforeSearch: indexing === 'on-demand',
    ...(options.onKnowledgeStatus ? { onStatus: options.onKnowledgeStatus } : {}),
    onWarning: (message) => options.notify({ level: 'warning', message }),
  })
  const sessions = sessionKnowledge({
    main: knowledge,
    mainRoot: () => settings.workspaceDir().dir,
    other: (session) =>
      createKnowledgeService({
        dataDir: options.dataDir,
        workspace: session,
        converter,
        settings: () => settings.get().knowledge,
        embedder: providerEmbedder(() => settings.get().knowledge, openProviders, localVectors),
        disabled: true,
        syncBeforeSearch: true,
        indexDir: () => join(options.dataDir, 'index', 'other-folder'),
      }),
  })
  const mcp = createMcpHost({
    dataDir: options.dataDir,
    settings: {
      mcp: () => settings.get().mcp,
      getSecret: (name) => settings.getSecret(name),
      listSecretNames: (prefix) => settings.listSecretNames(prefix),
    },
    registry: tools.registry,
    logger: options.logger.child('mcp'),
    notify: options.notify,
    ...(options.onMcpChange ? { onChange: options.onMcpChange } : {}),
  })
  return {
    settings,
    providers: openProviders,
    converter,
    browser,
    email,
    calendar,
    tools,
    workspace,
    knowledge,
    mcp,
    memory,
    async close() {
      await mcp.close()
      await sessions.close()
      await knowledge.close()
      await workspace.close()
      await tools.close()
      await converter.dispose()
    },
  }
}
