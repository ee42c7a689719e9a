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
} as const
