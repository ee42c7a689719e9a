import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { AttachmentSettings } from '../../shared/settings/sections/attachments'
import { SETTINGS_SCHEMA_VERSION } from '../../shared/settings/version'
import { SETTINGS_FILE_NAME } from './fileNames'

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * Whether settings.json leaves `attachments.vision` at `off` (or there is no settings.json), read
 * without the settings service: `bureau convert` needs only this setting for a PDF, and loading the
 * service (its modules and every section's schema, ~35 ms) held back the first PDF's job.
 * Only `off`, the value that keeps pictures on this computer, is answered here; `false` means "ask the
 * settings service", which validates the whole file (moving a damaged one aside, with its notice) and
 * knows the provider that `when-supported` needs anyway.
 */
export function visionSettingIsOff(dataDir: string): boolean {
  let text: string
  try {
    text = readFileSync(join(dataDir, `${SETTINGS_FILE_NAME}.json`), 'utf8')
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' && AttachmentSettings.parse({}).vision === 'off'
  }
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch {
    return false
  }
  if (!isObject(data) || data.schemaVersion !== SETTINGS_SCHEMA_VERSION) return false
  const attachments = AttachmentSettings.safeParse(data.attachments ?? {})
  return attachments.success && attachments.data.vision === 'off'
}
