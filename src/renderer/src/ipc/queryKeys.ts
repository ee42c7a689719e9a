/**
 * Every query key the renderer caches under, in one place: a hook that reads a key and a handler that
 * invalidates it name the same function, so they cannot drift apart.
 */
export const queryKeys = {
  settings: () => ['settings'] as const,
  providers: () => ['providers'] as const,
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
