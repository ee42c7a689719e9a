import { apiToolName } from './naming'
import type { RegisteredMethod, ToolRegistry, Toolset } from './types'

export function createToolRegistry(initial: readonly Toolset[] = []): ToolRegistry {
  const entries = new Map<string, { toolset: Toolset; source: string }>()
  const listeners = new Set<() => void>()
  let snapshot: readonly Toolset[] = Object.freeze([])
  let methodList: readonly RegisteredMethod[] | undefined

  const changed = () => {
    snapshot = Object.freeze([...entries.values()].map((entry) => entry.toolset))
    methodList = undefined
    for (const listener of listeners) listener()
  }

  const registry: ToolRegistry = {
    list: () => snapshot,
    get: (name) => entries.get(name)?.toolset,
    sourceOf: (name) => entries.get(name)?.source,
    add(toolset, source = 'builtin') {
      const existing = entries.get(toolset.name)
      if (existing)
        return { added: false, reason: `toolset "${toolset.name}" is already provided by ${existing.source}` }
      const taken = new Set(registry.methods().map((m) => m.name))
      const clash = Object.keys(toolset.methods)
        .map((key) => apiToolName(toolset.name, key))
        .find((name) => taken.has(name))
      if (clash)
        return { added: false, reason: `method name "${clash}" is already provided by another toolset` }
      entries.set(toolset.name, { toolset, source })
      changed()
      return { added: true }
    },
    remove(name) {
      const removed = entries.delete(name)
      if (removed) changed()
      return removed
    },
    methods() {
      methodList ??= Object.freeze(
        snapshot.flatMap((toolset) =>
          Object.entries(toolset.methods).map(([key, method]) => ({
            toolset,
            key,
            method,
            name: apiToolName(toolset.name, key),
          })),
        ),
      )
      return methodList
    },
    onChange(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
  for (const toolset of initial) {
    const result = registry.add(toolset)
    if (!result.added) throw new Error(result.reason)
  }
  return registry
}

/** Toolsets come as a live registry (plugins hot-added later show up) or a fixed list; this is the one place that tells them apart. */
export type ToolsetSource = ToolRegistry | readonly Toolset[]

function isRegistry(source: ToolsetSource): source is ToolRegistry {
  return !Array.isArray(source)
}

/** The toolsets of a source as a list (a registry's current snapshot). */
export function toolsetList(source: ToolsetSource): readonly Toolset[] {
  return isRegistry(source) ? source.list() : source
}

/** The source as a registry: the live one itself, or a fixed one over the list. */
export function registryOf(source: ToolsetSource): ToolRegistry {
  return isRegistry(source) ? source : createToolRegistry(source)
}
