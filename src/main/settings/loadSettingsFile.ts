import type { z } from 'zod'
import { isAppError } from '../../shared/errors'
import type { AppNotice } from '../../shared/ipc'
import {
  extractSecrets,
  type JsonObject,
  migrateSettings,
  SETTINGS_SCHEMA_VERSION,
  Settings,
} from '../../shared/settings'
import { fileProblem, isFsError } from './fileProblem'
import { CorruptJsonFileError, type JsonFileBackend } from './jsonFileBackend'
import { moveAside } from './moveAside'

export interface LoadedSettings {
  /** What the file holds after migration, without defaults filled in and without plaintext secrets. */
  raw: JsonObject
  settings: Settings
  /** Plaintext secrets found in the file (an old version or a hand edit): to be encrypted, then dropped. */
  secrets: Map<string, string>
  /** The file must be written again (migrated, or secrets taken out). */
  rewrite: boolean
  /** False when the file was unreadable or invalid and was moved aside. */
  ok: boolean
  notices: AppNotice[]
}

/** Where each problem is, never the offending value (it could be a misplaced secret). */
function describeIssues(error: z.ZodError): string {
  const shown = error.issues.slice(0, 3).map((issue) => {
    const path = issue.path.map(String).join('.') || '(top level)'
    return `${path}: ${issue.message}`
  })
  const more = error.issues.length > shown.length ? ` and ${error.issues.length - shown.length} more` : ''
  return shown.join('; ') + more
}

function setAsideNotice(kept: string | undefined, reason: string): AppNotice {
  return {
    level: 'error',
    id: 'settings.corrupt',
    message: `Your settings could not be used (${reason}), so the defaults are in effect.${kept ? ` The old file was kept as ${kept} in the data folder.` : ''}`,
  }
}

/**
 * Reads settings.json: a file that does not parse or validate is moved aside as
 * `settings.corrupt-<timestamp>.json` and the defaults load; an older version is migrated;
 * a newer one is used as it is (its unknown keys are kept).
 */
export function loadSettingsFile(backend: JsonFileBackend, now: Date): LoadedSettings {
  const fallback = (reason: string, replacement?: JsonObject, secrets = new Map<string, string>()) => {
    const kept = moveAside(
      backend.path,
      now,
      replacement && secrets.size > 0 ? `${JSON.stringify(replacement, null, 2)}\n` : undefined,
    )
    return {
      raw: {},
      settings: Settings.parse({}),
      secrets,
      rewrite: false,
      ok: false,
      notices: [setAsideNotice(kept, reason)],
    }
  }

  let stored: JsonObject
  try {
    stored = backend.read()
  } catch (error) {
    if (error instanceof CorruptJsonFileError) return fallback('the file is not valid JSON')
    if (isFsError(error))
      throw fileProblem(
        backend.path,
        error,
        'Move it out of the data folder (or fix its permissions) and start Bureau again; a new settings file is then created.',
      )
    throw error
  }

  let migrated: ReturnType<typeof migrateSettings>
  try {
    migrated = migrateSettings(stored)
  } catch (error) {
    // A migration step is pure: the only AppError it throws is a version it cannot read.
    if (isAppError(error) && error.code === 'VALIDATION_FAILED') return fallback(error.message)
    throw error
  }

  const { data, secrets } = extractSecrets(migrated.data)
  const parsed = Settings.safeParse(data)
  if (!parsed.success) return fallback(describeIssues(parsed.error), data, secrets)

  const notices: AppNotice[] = []
  if (migrated.newer) {
    notices.push({
      level: 'info',
      id: 'settings.newer',
      message: `Your settings were saved by a newer Bureau (format ${migrated.fromVersion}, this one reads ${SETTINGS_SCHEMA_VERSION}). Settings this version does not know are kept unchanged.`,
    })
  }
  const isEmptyFile = Object.keys(stored).length === 0
  return {
    raw: data,
    settings: parsed.data,
    secrets,
    rewrite: !isEmptyFile && (migrated.fromVersion < SETTINGS_SCHEMA_VERSION || secrets.size > 0),
    ok: true,
    notices,
  }
}
