import { z } from 'zod'
import { type Settings, settingsSections } from './schema'
import { looksLikeSecretKey } from './secretNames'
import { FOLDER_PATH_MESSAGE, FULL_FOLDER_PATH } from './sections/workspace'

/**
 * A partial update in JSON Merge Patch form (RFC 7396): objects merge, anything else replaces,
 * and `null` removes a value so it falls back to its default.
 */
export type DeepPatch<T> = T extends readonly unknown[]
  ? T | null
  : T extends object
    ? { [K in keyof T]?: DeepPatch<T[K]> | null }
    : T | null
export type SettingsPatch = DeepPatch<Omit<Settings, 'schemaVersion'>>

type AnySchema = z.ZodType

function unwrapDefaults(schema: AnySchema): AnySchema {
  let inner = schema
  for (;;) {
    if (inner instanceof z.ZodDefault || inner instanceof z.ZodPrefault || inner instanceof z.ZodOptional)
      inner = inner.unwrap() as AnySchema
    else return inner
  }
}

/** The patch form of one stored schema: every field optional and nullable, unknown keys refused. */
export function patchSchemaOf(schema: AnySchema): AnySchema {
  const inner = unwrapDefaults(schema)
  if (inner instanceof z.ZodObject) {
    const shape = Object.fromEntries(
      Object.entries(inner.shape as Record<string, AnySchema>).map(([key, value]) => [
        key,
        patchSchemaOf(value),
      ]),
    )
    return z.strictObject(shape).nullable().optional()
  }
  if (inner instanceof z.ZodRecord) {
    return z
      .record(inner.keyType as z.ZodString, patchSchemaOf(inner.valueType as AnySchema))
      .nullable()
      .optional()
  }
  return inner.nullable().optional()
}

function findSecretLikeKeys(value: unknown, path: string[] = []): string[][] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return []
  return Object.entries(value).flatMap(([key, child]) =>
    looksLikeSecretKey(key) ? [[...path, key]] : findSecretLikeKeys(child, [...path, key]),
  )
}

const patchShape = Object.fromEntries(
  Object.entries(settingsSections).map(([key, schema]) => [key, patchSchemaOf(schema)]),
)

/** The input of `settings.update`: refuses secrets (they go through `settings.setSecret`) and typos. */
export const SettingsUpdate = z
  .unknown()
  .superRefine((value, ctx) => {
    // A relative folder would quietly land under the home folder: the user is asked for the full path.
    const folder = (value as { workspace?: { folder?: unknown } } | null)?.workspace?.folder
    if (typeof folder === 'string' && folder.trim() !== '' && !FULL_FOLDER_PATH.test(folder.trim()))
      ctx.addIssue({ code: 'custom', path: ['workspace', 'folder'], message: FOLDER_PATH_MESSAGE })
    for (const path of findSecretLikeKeys(value)) {
      ctx.addIssue({
        code: 'custom',
        path,
        message: `"${path.join('.')}" looks like a secret: set it with settings.setSecret (it is stored encrypted), not settings.update.`,
      })
    }
  })
  .pipe(z.strictObject(patchShape)) as unknown as z.ZodType<SettingsPatch, SettingsPatch>
