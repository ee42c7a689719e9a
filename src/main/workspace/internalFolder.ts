import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'

/**
 * Creates `<root>/.bureau` (and `sub` inside it) on first use. Its `.gitignore` keeps Bureau's data out
 * of the user's own repository when the workspace is one.
 */
export async function ensureInternalFolder(internalDir: string, sub?: string): Promise<string> {
  const target = sub ? path.join(internalDir, sub) : internalDir
  await mkdir(target, { recursive: true })
  await writeFile(path.join(internalDir, '.gitignore'), '*\n', { flag: 'wx' }).catch(() => undefined)
  return target
}
