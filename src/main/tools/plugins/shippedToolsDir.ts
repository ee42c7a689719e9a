import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The project's `tools/` folder of shipped example plugins: found by walking up from this module
 * (source or bundled output) to the folder holding package.json and tools/.
 */
export function shippedToolsDir(from: string = fileURLToPath(import.meta.url)): string | undefined {
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'tools'))) return join(dir, 'tools')
    if (dirname(dir) === dir) return undefined
  }
}

/** The plugin folders a host loads: the shipped examples, then the user's `<data-dir>/tools`. */
export function pluginDirs(dataDir?: string): string[] {
  const dirs: string[] = []
  const shipped = shippedToolsDir()
  if (shipped) dirs.push(shipped)
  if (dataDir) dirs.push(join(dataDir, 'tools'))
  return dirs
}
