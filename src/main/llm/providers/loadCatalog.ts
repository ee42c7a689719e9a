import { readFile } from 'node:fs/promises'
import type { AppNotice } from '../../../shared/ipc'
import { BUILTIN_PRESETS } from './builtinPresets'
import { describeZodIssues } from './describeZodIssues'
import {
  PresetsFileSchema,
  type ProviderOverrideEntry,
  type ProviderPreset,
  ProviderPresetSchema,
  UserProvidersFileSchema,
} from './presetSchema'

export type Notify = (notice: AppNotice) => void

export interface CatalogFiles {
  /** The factory `providers.json`; undefined when it could not be found. */
  presetsFile: string | undefined
  /** The user's `<data-dir>/providers.json` (may not exist: that is the normal case). */
  userFile: string | undefined
  notify: Notify
}

export interface ProviderCatalog {
  /** Presets merged with the user's entries, in order: presets first, then the user's new providers. */
  providers: ProviderPreset[]
  /** True when the embedded presets were used because the factory file was missing or invalid. */
  usedFallback: boolean
  /** Ids the user's file changed or added. */
  userIds: ReadonlySet<string>
}

type ReadResult =
  | { kind: 'missing' }
  | { kind: 'unreadable'; reason: string }
  | { kind: 'json'; value: unknown }

async function readJson(file: string | undefined): Promise<ReadResult> {
  if (!file) return { kind: 'missing' }
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    return code === 'ENOENT' ? { kind: 'missing' } : { kind: 'unreadable', reason: code ?? 'unreadable' }
  }
  try {
    return { kind: 'json', value: JSON.parse(text) }
  } catch (error) {
    return { kind: 'unreadable', reason: `not valid JSON (${(error as Error).message})` }
  }
}

async function loadPresets(
  files: CatalogFiles,
): Promise<{ presets: ProviderPreset[]; usedFallback: boolean }> {
  const read = await readJson(files.presetsFile)
  let reason: string
  if (read.kind === 'json') {
    const parsed = PresetsFileSchema.safeParse(read.value)
    if (parsed.success) return { presets: parsed.data, usedFallback: false }
    reason = `it is invalid: ${describeZodIssues(parsed.error, read.value)}`
  } else {
    reason = read.kind === 'missing' ? 'it is missing' : `it cannot be read: ${read.reason}`
  }
  files.notify({
    id: 'providers.presets-fallback',
    level: 'warning',
    message: `The factory providers.json could not be used (${reason}). Bureau uses its built-in provider presets.`,
  })
  return { presets: BUILTIN_PRESETS.map((preset) => ({ ...preset })), usedFallback: true }
}

/** Applies the user's entries: a known id changes that preset's fields, a new id adds a provider. */
function mergeUserEntries(
  presets: ProviderPreset[],
  entries: ProviderOverrideEntry[],
  notify: Notify,
): { providers: ProviderPreset[]; userIds: Set<string> } {
  const providers = [...presets]
  const userIds = new Set<string>()
  const skipped: string[] = []
  for (const entry of entries) {
    const index = providers.findIndex((provider) => provider.id === entry.id)
    if (index >= 0) {
      const base = providers[index] as ProviderPreset
      const merged: ProviderPreset = { ...base, ...entry }
      if (base.headers && entry.headers) merged.headers = { ...base.headers, ...entry.headers }
      providers[index] = merged
      userIds.add(entry.id)
      continue
    }
    const complete = ProviderPresetSchema.safeParse(entry)
    if (complete.success) {
      providers.push(complete.data)
      userIds.add(entry.id)
    } else {
      const missing = complete.error.issues.map((issue) => issue.path.join('.')).join(', ')
      skipped.push(`"${entry.id}" (new provider, missing or invalid: ${missing})`)
    }
  }
  if (skipped.length > 0) {
    notify({
      id: 'providers.user-entries-skipped',
      level: 'warning',
      message: `Some providers in your providers.json were skipped: ${skipped.join('; ')}. A new provider needs id, name, kind, baseUrl and model.`,
    })
  }
  return { providers, userIds }
}

/** Loads the factory presets (or the embedded fallback) and merges the user's overrides. */
export async function loadProviderCatalog(files: CatalogFiles): Promise<ProviderCatalog> {
  const { presets, usedFallback } = await loadPresets(files)
  const read = await readJson(files.userFile)
  if (read.kind === 'missing') return { providers: presets, usedFallback, userIds: new Set() }
  if (read.kind === 'unreadable') {
    files.notify({
      id: 'providers.user-file-invalid',
      level: 'warning',
      message: `Your providers.json in the data folder is ignored: ${read.reason}. The presets are used.`,
    })
    return { providers: presets, usedFallback, userIds: new Set() }
  }
  const parsed = UserProvidersFileSchema.safeParse(read.value)
  if (!parsed.success) {
    files.notify({
      id: 'providers.user-file-invalid',
      level: 'warning',
      message: `Your providers.json in the data folder is ignored: ${describeZodIssues(parsed.error, read.value)}. The presets are used.`,
    })
    return { providers: presets, usedFallback, userIds: new Set() }
  }
  return { ...mergeUserEntries(presets, parsed.data, files.notify), usedFallback }
}
