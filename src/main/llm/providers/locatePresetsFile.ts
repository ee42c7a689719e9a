import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const PRESETS_FILE_NAME = 'providers.json'

/**
 * Finds the factory `providers.json` at the repository (or app) root, next to `package.json`,
 * whether this code runs bundled from `out/main` (or a chunk folder) or from `src/` under tests.
 */
export function locatePresetsFile(from: string = fileURLToPath(import.meta.url)): string | undefined {
  let dir = dirname(from)
  for (let depth = 0; depth < 6; depth++) {
    const candidate = join(dir, PRESETS_FILE_NAME)
    if (existsSync(candidate) && existsSync(join(dir, 'package.json'))) return candidate
    const parent = dirname(dir)
    if (parent === dir) break
    dir = parent
  }
  return undefined
}
