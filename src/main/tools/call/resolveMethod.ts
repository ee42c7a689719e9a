import { apiToolName, cliMethodName, clip, nameKey } from '../naming'
import { closestNames, didYouMean } from '../suggest'
import type { RegisteredMethod, ToolRegistry, Toolset } from '../types'

export type Resolution = { ok: true; target: RegisteredMethod } | { ok: false; error: string }

interface NameIndex {
  byName: Map<string, RegisteredMethod>
  byFullKey: Map<string, RegisteredMethod[]>
  byMethodKey: Map<string, RegisteredMethod[]>
  toolsets: Map<string, Toolset>
}

const indexes = new WeakMap<readonly Toolset[], NameIndex>()

function push<K, V>(map: Map<K, V[]>, key: K, value: V) {
  const list = map.get(key)
  if (list) list.push(value)
  else map.set(key, [value])
}

function indexFor(registry: ToolRegistry): NameIndex {
  const snapshot = registry.list()
  const cached = indexes.get(snapshot)
  if (cached) return cached
  const index: NameIndex = {
    byName: new Map(),
    byFullKey: new Map(),
    byMethodKey: new Map(),
    toolsets: new Map(),
  }
  for (const toolset of snapshot) index.toolsets.set(nameKey(toolset.name), toolset)
  for (const entry of registry.methods()) {
    index.byName.set(entry.name, entry)
    push(index.byFullKey, nameKey(entry.toolset.name + entry.key), entry)
    push(index.byMethodKey, nameKey(entry.key), entry)
  }
  indexes.set(snapshot, index)
  return index
}

/** `functions.text_word_count()` -> `text_word_count`: wrappers some models put around names. */
function cleanName(name: string): string {
  return name
    .trim()
    .replace(/^[`'"]+|[`'"]+$/g, '')
    .replace(/^functions?[.:]/i, '')
    .replace(/\(\s*\)$/, '')
    .trim()
}

export function findToolset(registry: ToolRegistry, name: string): Toolset | undefined {
  return indexFor(registry).toolsets.get(nameKey(cleanName(name)))
}

export function methodNames(toolset: Toolset): string[] {
  return Object.keys(toolset.methods).map(cliMethodName)
}

/**
 * Resolves a method inside a known toolset, accepting every spelling of its name. Suggestions use the
 * spelling the caller works with: `write_text` in the CLI terminal, `files_write_text` for API-mode calls.
 */
export function resolveInToolset(
  registry: ToolRegistry,
  toolset: Toolset,
  name: string,
  style: 'cli' | 'api' = 'cli',
): Resolution {
  const key = nameKey(cleanName(name))
  const hit = indexFor(registry)
    .byFullKey.get(nameKey(toolset.name) + key)
    ?.find((entry) => entry.toolset === toolset)
  if (hit) return { ok: true, target: hit }
  const names =
    style === 'api'
      ? Object.keys(toolset.methods).map((key) => apiToolName(toolset.name, key))
      : methodNames(toolset)
  return {
    ok: false,
    error: `Unknown method "${clip(name)}" in toolset ${toolset.name}.${didYouMean(name, names, undefined, (option) => [option.replace(`${toolset.name}_`, '')])} Methods: ${names.join(', ')}.`,
  }
}

function ambiguous(name: string, entries: RegisteredMethod[]): Resolution {
  return {
    ok: false,
    error: `"${clip(name)}" exists in several toolsets: ${entries.map((e) => e.name).join(', ')}. Use the full name.`,
  }
}

/**
 * Resolves a method name as a model spells it: `spreadsheet_set_cell_value`, `spreadsheet.setCellValue`,
 * `set-cell-value`, `SetCellValue` (without the toolset prefix when only one toolset has it).
 */
export function resolveMethod(registry: ToolRegistry, rawName: string): Resolution {
  const index = indexFor(registry)
  const exact = index.byName.get(rawName)
  if (exact) return { ok: true, target: exact }
  const name = cleanName(rawName)
  if (name === '') return { ok: false, error: 'No method name given.' }
  const separated = /^([A-Za-z0-9_-]+)\s*(?:\.|\/|::|\s)\s*([A-Za-z0-9_-]+)$/.exec(name)
  if (separated?.[1] && separated[2]) {
    const toolset = index.toolsets.get(nameKey(separated[1]))
    if (toolset) return resolveInToolset(registry, toolset, separated[2], 'api')
  }
  const key = nameKey(name)
  const full = index.byFullKey.get(key)
  if (full?.length === 1 && full[0]) return { ok: true, target: full[0] }
  if (full && full.length > 1) return ambiguous(name, full)
  const bare = index.byMethodKey.get(key)
  if (bare?.length === 1 && bare[0]) return { ok: true, target: bare[0] }
  if (bare && bare.length > 1) return ambiguous(name, bare)
  const prefix = [...index.toolsets.keys()]
    .filter((toolsetKey) => key.startsWith(toolsetKey) && key.length > toolsetKey.length)
    .sort((a, b) => b.length - a.length)[0]
  const prefixed = prefix ? index.toolsets.get(prefix) : undefined
  if (prefix && prefixed) return resolveInToolset(registry, prefixed, key.slice(prefix.length), 'api')
  const all = [...index.byName.keys()]
  const close = closestNames(name, all, 3, (full) => {
    const entry = index.byName.get(full)
    return entry ? [entry.key] : []
  })
  const hint =
    close.length > 0
      ? ` Closest: ${close.join(', ')}.`
      : ` Toolsets: ${[...index.toolsets.values()].map((t) => t.name).join(', ') || 'none'}.`
  return { ok: false, error: `Unknown method "${clip(name)}".${hint}` }
}
