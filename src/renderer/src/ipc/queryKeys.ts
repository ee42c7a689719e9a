/**
 * Every query key the renderer caches under, in one place: a hook that reads a key and a handler that
 * invalidates it name the same function, so they cannot drift apart.
 */
export const queryKeys = {
  settings: () => ['settings'] as const,
  providers: () => ['providers'] as const,
  /** Under `providers()`, so a change of provider refreshes the picker's lists too. */
  providerModels: () => ['providers', 'models'] as const,
  conversations: {
    all: () => ['conversations'] as const,
    list: (query: string) => ['conversations', query] as const,
  },
  models: {
    all: () => ['models'] as const,
    installed: () => ['models', 'installed'] as const,
    catalogue: () => ['models', 'catalogue'] as const,
    speeds: () => ['models', 'speeds'] as const,
    downloads: () => ['models', 'downloads'] as const,
  },
  ollama: () => ['ollama'] as const,
  voice: {
    all: () => ['voice'] as const,
    engines: () => ['voice', 'engines'] as const,
    models: () => ['voice', 'models'] as const,
  },
  tools: {
    toolsets: () => ['tools.toolsets'] as const,
    plugins: () => ['tools.plugins'] as const,
  },
  evalResults: () => ['eval.lastResults'] as const,
  /** The first-run guide's one test of the provider in use. */
  firstRunTest: () => ['first-run', 'active-test'] as const,
  memory: {
    all: () => ['memory.list'] as const,
    list: (query: string) => ['memory.list', query] as const,
  },
  automations: {
    all: () => ['automations'] as const,
    list: () => ['automations', 'list'] as const,
    history: (id: string) => ['automations', 'history', id] as const,
    preview: (schedule: string) => ['automations', 'preview', schedule] as const,
  },
  workspace: {
    all: () => ['workspace'] as const,
    list: (folder: string) => ['workspace', folder] as const,
  },
  knowledge: {
    status: () => ['knowledge.status'] as const,
    passage: (path: string, start: number, end: number) => ['knowledge.passage', path, start, end] as const,
  },
  appInfo: () => ['app.info'] as const,
  instructionTokens: (global: string, conversation: string) =>
    ['instruction-tokens', global, conversation] as const,
  preview: {
    all: () => ['preview'] as const,
    describe: (path: string | undefined, version: string) => ['preview', 'describe', path, version] as const,
    rows: (path: string, version: string, sheet: string, page: number) =>
      ['preview', 'rows', path, version, sheet, page] as const,
    pdfPage: (path: string, version: string, page: number, width: number) =>
      ['preview', 'pdf', path, version, page, width] as const,
    bytes: (path: string, version: string) => ['preview', 'bytes', path, version] as const,
    versions: (path: string) => ['preview', 'versions', path] as const,
    compare: (path: string | undefined, version: string, against: string | undefined) =>
      ['preview', 'compare', path, version, against] as const,
  },
} as const
