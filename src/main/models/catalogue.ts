import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'
import { AppError } from '../../shared/errors'
import { ModelId } from './modelId'

export const CATALOGUE_FILE_NAME = 'models.json'

/** One recommended model; see docs/providers-config.md ("Local models"). */
export const CatalogueEntrySchema = z.strictObject({
  id: ModelId,
  name: z.string().min(1),
  url: z.url({ protocol: /^https$/ }),
  /** Approximate size in bytes as published; the download reports the real one. */
  sizeBytes: z.number().int().positive(),
  /** Lowercase hex; `null` when not verified yet (the download then records what it got). */
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable(),
  licence: z.string().min(1),
  parameters: z.string().min(1),
  quantisation: z.string().min(1),
  /** Free memory the model needs to run with a useful context, in GiB (a guide, not a check). */
  minRamGiB: z.number().positive(),
  notes: z.string().optional(),
})
export type CatalogueEntry = z.infer<typeof CatalogueEntrySchema>

export const CatalogueFileSchema = z.array(CatalogueEntrySchema)

/** `models.json` next to `package.json` (and `providers.json`), from `src/` or the bundle in `out/`. */
export function locateCatalogueFile(from: string = fileURLToPath(import.meta.url)): string | undefined {
  let dir = dirname(from)
  for (let depth = 0; depth < 6; depth++) {
    const candidate = join(dir, CATALOGUE_FILE_NAME)
    if (existsSync(candidate) && existsSync(join(dir, 'package.json'))) return candidate
    const parent = dirname(dir)
    if (parent === dir) break
    dir = parent
  }
  return undefined
}

/** The recommended models; an unreadable file is a clear error naming the file and the field. */
export async function loadCatalogue(file = locateCatalogueFile()): Promise<CatalogueEntry[]> {
  if (!file) return []
  const text = await readFile(file, 'utf8')
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    throw new AppError('VALIDATION_FAILED', `${file} is not valid JSON: ${(error as Error).message}`, {
      cause: error,
    })
  }
  const parsed = CatalogueFileSchema.safeParse(data)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new AppError('VALIDATION_FAILED', `${file}: ${issue?.path.join('.')}: ${issue?.message}`)
  }
  return parsed.data
}
