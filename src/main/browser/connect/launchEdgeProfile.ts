import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { QUIET_FLAGS } from '../config/launchFlags'
import { findBrowser } from '../discovery/findBrowser'
import type { BrowserConfig, BrowserConnection } from '../types'
import { noBrowserFound, profileUnavailable, shortReason } from './connectErrors'

const LOCK_FILES = ['SingletonLock', 'lockfile']

function lockedProfile(dir: string): boolean {
  return LOCK_FILES.some((name) => {
    try {
      return existsSync(join(dir, name))
    } catch {
      return false
    }
  })
}

/**
 * edge-profile: Edge (or Chrome) on the user's own profile, so their logins come along. Works only
 * while that browser is closed; otherwise the error says so and offers the Bureau profile.
 */
export async function launchEdgeProfile(config: BrowserConfig): Promise<BrowserConnection> {
  const found = findBrowser({ families: ['edge', 'chrome'] })
  const executablePath = config.executablePath ?? found?.path ?? null
  if (!executablePath) throw noBrowserFound('Edge or Chrome')
  const name = /edge/i.test(executablePath)
    ? 'Edge'
    : /chrome/i.test(executablePath)
      ? 'Chrome'
      : 'The browser'
  const profileDir = config.profileDir ?? found?.userDataDir ?? null
  if (!profileDir) throw noBrowserFound(`${name} profile folder`)
  if (lockedProfile(profileDir)) throw profileUnavailable(name, 'the profile is in use by a running browser')
  const { chromium } = await import('playwright-core')
  let context: Awaited<ReturnType<typeof chromium.launchPersistentContext>>
  try {
    context = await chromium.launchPersistentContext(profileDir, {
      executablePath,
      headless: config.headless,
      args: [...QUIET_FLAGS],
      // The guard proxy (loopback too: Chromium sends it past proxies unless told otherwise).
      ...(config.proxyServer ? { proxy: { server: config.proxyServer, bypass: '<-loopback>' } } : {}),
      acceptDownloads: true,
      viewport: null,
      timeout: 20_000,
    })
  } catch (error) {
    throw profileUnavailable(name, shortReason(error))
  }
  const browser = context.browser()
  if (!browser) {
    await context.close().catch(() => {})
    throw profileUnavailable(name, 'Playwright gave no browser handle for the profile')
  }
  return {
    mode: 'edge-profile',
    browser,
    newPage: () => context.newPage(),
    close: () => context.close(),
  }
}
