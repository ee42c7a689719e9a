import { AppError } from '../errors'
import { isPlainObject, type JsonObject } from './mergePatch'
import { migrateV0ToV1 } from './migrations/v0ToV1'
import { SETTINGS_SCHEMA_VERSION } from './schema'

/** `settingsMigrations[n]` turns a version-n file into version n+1. Pure: no I/O, no secrets handling. */
export const settingsMigrations: Readonly<Record<number, (data: JsonObject) => JsonObject>> = {
  0: migrateV0ToV1,
}

export interface MigrationOutcome {
  data: JsonObject
  fromVersion: number
  /** Written by a newer Bureau: left as it is (unknown keys are kept, the version is not lowered). */
  newer: boolean
}

/** A file without `schemaVersion` is version 0. */
export function schemaVersionOf(data: JsonObject): number {
  const version = data.schemaVersion
  if (version === undefined) return 0
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 0)
    throw new AppError(
      'VALIDATION_FAILED',
      `schemaVersion must be a whole number, not ${JSON.stringify(version)}`,
    )
  return version
}

export function migrateSettings(raw: unknown): MigrationOutcome {
  if (!isPlainObject(raw))
    throw new AppError('VALIDATION_FAILED', 'the settings file must hold a JSON object')
  const fromVersion = schemaVersionOf(raw)
  if (fromVersion > SETTINGS_SCHEMA_VERSION) return { data: raw, fromVersion, newer: true }
  let data = raw
  for (let version = fromVersion; version < SETTINGS_SCHEMA_VERSION; version++) {
    const step = settingsMigrations[version]
    if (!step) throw new AppError('VALIDATION_FAILED', `no migration from settings version ${version}`)
    data = { ...step(data), schemaVersion: version + 1 }
  }
  return { data, fromVersion, newer: false }
}
