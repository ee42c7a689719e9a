import { homedir } from 'node:os'
import { isAbsolute, join, resolve } from 'node:path'
import { APP_DIR_NAME } from '../platform'
import type { EnvLookup } from './secretEnv'

export type WorkspaceSource = 'flag' | 'env' | 'settings' | 'default'

function expandHome(folder: string, home: string): string {
  if (folder === '~') return home
  if (folder.startsWith('~/') || folder.startsWith('~\\')) return join(home, folder.slice(2))
  return isAbsolute(folder) ? folder : resolve(home, folder)
}

/**
 * The workspace folder, by precedence: the `--workspace` flag, then `BUREAU_WORKSPACE`, then the
 * setting `workspace.folder`, then ~/Bureau. `~` and relative paths are taken from the home folder.
 */
export function resolveWorkspaceDir(input: {
  flag?: string
  settingsFolder: string | null
  env: EnvLookup
  home?: string
}): { dir: string; source: WorkspaceSource } {
  const home = input.home ?? homedir()
  if (input.flag) return { dir: resolve(input.flag), source: 'flag' }
  const fromEnv = input.env('BUREAU_WORKSPACE')?.trim()
  if (fromEnv) return { dir: expandHome(fromEnv, home), source: 'env' }
  if (input.settingsFolder) return { dir: expandHome(input.settingsFolder, home), source: 'settings' }
  return { dir: join(home, APP_DIR_NAME), source: 'default' }
}
