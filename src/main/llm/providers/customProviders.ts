import { readFile } from 'node:fs/promises'
import { writeFile } from 'atomically'
import { AppError } from '../../../shared/errors'
import type { CustomProviderInput } from '../../../shared/ipc/routes/providers'
import { describeZodIssues } from './describeZodIssues'
import { type ProviderOverrideEntry, UserProvidersFileSchema } from './presetSchema'

/** The user's `<data-dir>/providers.json` as entries; a missing file is an empty list. */
export async function readUserEntries(file: string): Promise<ProviderOverrideEntry[]> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw new AppError('UNAVAILABLE', `Your providers.json cannot be read (${(error as Error).message}).`, {
      cause: error,
    })
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new AppError(
      'VALIDATION_FAILED',
      `Your providers.json (${file}) is not valid JSON (${(error as Error).message}); fix or remove it first, nothing was changed.`,
      { cause: error },
    )
  }
  const parsed = UserProvidersFileSchema.safeParse(json)
  if (!parsed.success)
    throw new AppError(
      'VALIDATION_FAILED',
      `Your providers.json (${file}) is invalid (${describeZodIssues(parsed.error, json)}); fix or remove it first, nothing was changed.`,
    )
  return parsed.data
}

/** A provider id from a display name: "LM Studio (office)" -> "lm-studio-office". */
export function idFromName(name: string, taken: ReadonlySet<string>): string {
  const base =
    name
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 48) || 'custom'
  const start = /^[a-z0-9]/.test(base) ? base : `custom-${base}`
  if (!taken.has(start)) return start
  for (let n = 2; ; n++) if (!taken.has(`${start}-${n}`)) return `${start}-${n}`
}

/**
 * Adds or replaces one OpenAI-compatible provider of the user's file and keeps every other entry
 * (overrides of presets included) as it was. Returns the id written.
 */
export async function upsertCustomProvider(
  file: string,
  input: CustomProviderInput,
  presetIds: ReadonlySet<string>,
): Promise<string> {
  const entries = await readUserEntries(file)
  const userIds = new Set(entries.map((e) => e.id))
  let id = input.id
  if (id === undefined) id = idFromName(input.name, new Set([...presetIds, ...userIds]))
  else if (presetIds.has(id))
    throw new AppError(
      'VALIDATION_FAILED',
      `"${id}" is a built-in provider; a custom provider needs an id of its own.`,
    )
  const entry: ProviderOverrideEntry = {
    id,
    name: input.name.trim(),
    kind: 'openai-compatible',
    baseUrl: input.baseUrl.replace(/\/+$/, ''),
    model: input.model.trim(),
    // A key from Settings is the secret providers.<id>.apiKey; no environment variable is implied.
    ...(input.contextWindow !== undefined && { contextWindow: input.contextWindow }),
  }
  const index = entries.findIndex((e) => e.id === id)
  const next = index >= 0 ? entries.map((e, i) => (i === index ? entry : e)) : [...entries, entry]
  await writeFile(file, `${JSON.stringify(next, null, 2)}\n`)
  return id
}

/** Removes a provider the user added; a built-in preset cannot be removed. */
export async function removeCustomProvider(
  file: string,
  id: string,
  presetIds: ReadonlySet<string>,
): Promise<void> {
  if (presetIds.has(id))
    throw new AppError('VALIDATION_FAILED', `"${id}" is a built-in provider and cannot be removed.`)
  const entries = await readUserEntries(file)
  if (!entries.some((e) => e.id === id))
    throw new AppError('NOT_FOUND', `There is no custom provider "${id}".`)
  await writeFile(
    file,
    `${JSON.stringify(
      entries.filter((e) => e.id !== id),
      null,
      2,
    )}\n`,
  )
}
