import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * Finds the built renderer (`out/renderer`) whether this code runs bundled from `out/main`
 * (or one of its chunk folders) or from `src/` under the test runner.
 */
export function locateRendererDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.BUREAU_RENDERER_DIR) return env.BUREAU_RENDERER_DIR
  let dir = dirname(fileURLToPath(import.meta.url))
  for (let depth = 0; depth < 5; depth++) {
    for (const candidate of [join(dir, 'renderer'), join(dir, 'out', 'renderer')]) {
      if (existsSync(join(candidate, 'index.html'))) return candidate
    }
    dir = dirname(dir)
  }
  return undefined
}
