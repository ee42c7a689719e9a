import { homedir } from 'node:os'
import { join } from 'node:path'

export const APP_DIR_NAME = 'Bureau'

/** The OS user-data folder, matching Electron's `app.getPath('userData')` for productName Bureau. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.BUREAU_DATA_DIR) return env.BUREAU_DATA_DIR
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), APP_DIR_NAME)
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', APP_DIR_NAME)
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), APP_DIR_NAME)
}

export function defaultWorkspaceDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.BUREAU_WORKSPACE ?? join(homedir(), APP_DIR_NAME)
}

/**
 * The OS per-user cache folder (things that can be rebuilt: compiled code), like Electron's
 * `app.getPath('cache')` joined with the product name.
 */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (platform === 'win32')
    return join(env.LOCALAPPDATA || join(homedir(), 'AppData', 'Local'), APP_DIR_NAME, 'Cache')
  if (platform === 'darwin') return join(homedir(), 'Library', 'Caches', APP_DIR_NAME)
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), APP_DIR_NAME)
}
