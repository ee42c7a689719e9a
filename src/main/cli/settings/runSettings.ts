import type { z } from 'zod'
import type { AppNotice } from '../../../shared/ipc'
import {
  isSecretName,
  looksLikeSecretKey,
  patchForPath,
  type SettingsPatch,
  SettingsUpdate,
  secretNameRules,
  valueAtPath,
} from '../../../shared/settings'
import { defaultDataDir } from '../../platform'
import { openSettings, type SettingsService } from '../../settings'
import type { SettingsCliOptions } from '../commandOptions'
import { UsageError } from '../program'
import { cliStreams } from '../textIo'
import { readSecretInput } from './readSecretInput'

function printNotice(notice: AppNotice): void {
  cliStreams().stderr.write(`${notice.level}: ${notice.message}\n`)
}

function open(options: SettingsCliOptions): Promise<SettingsService> {
  return openSettings({ dataDir: options.dataDir ?? defaultDataDir(), notify: printNotice })
}

function printJson(value: unknown): void {
  cliStreams().stdout.write(`${JSON.stringify(value, null, 2)}\n`)
}

function checkSecretName(name: string): void {
  if (!isSecretName(name))
    throw new UsageError(
      `"${name}" is not a secret name. Secret names look like: ${secretNameRules.map((r) => r.example).join(', ')}.`,
    )
}

export async function runSettingsGet(key: string | undefined, options: SettingsCliOptions): Promise<void> {
  const settings = await open(options)
  const current = settings.getPublic()
  if (!key) return printJson(current)
  if (isSecretName(key)) return printJson(current.secrets[key] ?? { set: false })
  const found = valueAtPath(current, key)
  if (!found.found)
    throw new UsageError(`Unknown setting "${key}". Run \`bureau settings get\` to see them all.`)
  printJson(found.value)
}

/** The first form of the value that validates: its JSON reading, else the plain string. */
function patchFor(key: string, text: string): SettingsPatch {
  const candidates: unknown[] = []
  try {
    candidates.push(JSON.parse(text))
  } catch {}
  if (!candidates.includes(text)) candidates.push(text)
  let firstError: z.ZodError | undefined
  for (const value of candidates) {
    const checked = SettingsUpdate.safeParse(patchForPath(key, value))
    if (checked.success) return checked.data
    firstError ??= checked.error
  }
  const issues = firstError?.issues ?? []
  if (issues.some((issue) => issue.code === 'unrecognized_keys'))
    throw new UsageError(`Unknown setting "${key}". Run \`bureau settings get\` to see them all.`)
  const reasons = issues.map((issue) => issue.message).join('; ')
  throw new UsageError(`Invalid value for ${key}: ${reasons}`)
}

export async function runSettingsSet(key: string, text: string, options: SettingsCliOptions): Promise<void> {
  if (key === 'schemaVersion') throw new UsageError('schemaVersion is managed by Bureau.')
  const lastKey = key.split('.').at(-1) ?? key
  if (isSecretName(key) || looksLikeSecretKey(lastKey))
    throw new UsageError(
      `${key} is a secret: store it with \`bureau settings set-secret ${key}\`, which reads the value from stdin.`,
    )
  const patch = patchFor(key, text)
  const settings = await open(options)
  const updated = await settings.update(patch)
  cliStreams().stdout.write(`${key} = ${JSON.stringify(valueAtPath(updated, key).value ?? null)}\n`)
}

export async function runSettingsSetSecret(name: string, options: SettingsCliOptions): Promise<void> {
  checkSecretName(name)
  const value = (await readSecretInput(name)).trim()
  if (!value)
    throw new UsageError(
      `No value on stdin. Pipe it in, e.g. printf %s "$KEY" | bureau settings set-secret ${name}`,
    )
  const settings = await open(options)
  const updated = await settings.setSecret(name, value)
  const hint = updated.secrets[name]?.hint
  cliStreams().stdout.write(
    `Stored ${name}${hint ? ` (${hint})` : ''}, encrypted (${updated.secretStorage.kind}).\n`,
  )
  const override = updated.secrets[name]
  if (override?.source === 'env')
    cliStreams().stderr.write(`note: ${override.envVar} is set and overrides the stored value.\n`)
}

export async function runSettingsClearSecret(name: string, options: SettingsCliOptions): Promise<void> {
  checkSecretName(name)
  const settings = await open(options)
  const wasSet = settings.listSecretNames().includes(name)
  await settings.clearSecret(name)
  cliStreams().stdout.write(wasSet ? `Cleared ${name}.\n` : `${name} was not set.\n`)
}
