import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { resolveBrowserConfig } from '../../../src/main/browser/config/resolveBrowserConfig'
import { launchEdgeProfile } from '../../../src/main/browser/connect/launchEdgeProfile'
import { browserCandidates } from '../../../src/main/browser/discovery/browserCandidates'
import { findBrowser } from '../../../src/main/browser/discovery/findBrowser'

const only = (paths: string[]) => (path: string) => paths.includes(path)

describe('findBrowser', () => {
  it('prefers Edge on Windows, under Program Files (x86) or the user folder', () => {
    const env = {
      'PROGRAMFILES(X86)': 'C:\\Program Files (x86)',
      PROGRAMFILES: 'C:\\Program Files',
      LOCALAPPDATA: 'C:\\Users\\a\\AppData\\Local',
    }
    const edge = 'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe'
    const chrome = 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe'
    const found = findBrowser({ platform: 'win32', env, home: 'C:\\Users\\a', exists: only([chrome, edge]) })
    expect(found).toMatchObject({
      family: 'edge',
      path: edge,
      userDataDir: 'C:\\Users\\a\\AppData\\Local\\Microsoft\\Edge\\User Data',
    })
    expect(
      findBrowser({ platform: 'win32', env, home: 'C:\\Users\\a', exists: only([chrome]) })?.family,
    ).toBe('chrome')
  })

  it('finds the macOS app bundles and their profile folders', () => {
    const chrome = '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'
    const found = findBrowser({ platform: 'darwin', env: {}, home: '/Users/a', exists: only([chrome]) })
    expect(found).toMatchObject({
      family: 'chrome',
      path: chrome,
      userDataDir: '/Users/a/Library/Application Support/Google/Chrome',
    })
  })

  it('looks up bare command names on PATH on Linux, and honours the family order', () => {
    const env = { PATH: '/opt/bin:/usr/local/bin' }
    const found = findBrowser({
      platform: 'linux',
      env,
      home: '/home/a',
      exists: only(['/usr/local/bin/microsoft-edge', '/usr/bin/chromium']),
    })
    expect(found).toMatchObject({
      family: 'edge',
      path: '/usr/local/bin/microsoft-edge',
      userDataDir: '/home/a/.config/microsoft-edge',
    })
    const chromiumFirst = findBrowser({
      platform: 'linux',
      env,
      home: '/home/a',
      families: ['chromium'],
      exists: only(['/usr/bin/chromium']),
    })
    expect(chromiumFirst?.path).toBe('/usr/bin/chromium')
    expect(findBrowser({ platform: 'linux', env, home: '/home/a', exists: () => false })).toBeNull()
  })

  it('lists Edge, Chrome and Chromium for every platform', () => {
    for (const platform of ['win32', 'darwin', 'linux'] as const) {
      const families = new Set(browserCandidates(platform, {}, '/h').map((c) => c.family))
      expect([...families]).toEqual(['edge', 'chrome', 'chromium'])
    }
  })
})

describe('resolveBrowserConfig', () => {
  const settings = {
    mode: 'edge-profile' as const,
    executablePath: null,
    profileDir: null,
    cdpEndpoint: 'http://127.0.0.1:9222',
    allowLocalNetwork: false,
    searchUrl: 'https://html.duckduckgo.com/html/?q={query}',
  }

  it('uses the settings, with the Bureau profile under the data folder', async () => {
    const config = await resolveBrowserConfig({ dataDir: '/data', settings: () => settings })
    expect(config).toMatchObject({
      mode: 'edge-profile',
      bureauProfileDir: join('/data', 'browser-profile'),
      headless: false,
    })
  })

  it('lets the flags win: --browser-cdp means cdp, --browser-executable alone means bundled-chromium', async () => {
    const cdp = await resolveBrowserConfig({
      dataDir: '/data',
      settings: () => settings,
      overrides: { cdpEndpoint: 'ws://127.0.0.1:9333/devtools/browser/x', allowLocalNetwork: true },
    })
    expect(cdp).toMatchObject({
      mode: 'cdp',
      cdpEndpoint: 'ws://127.0.0.1:9333/devtools/browser/x',
      allowLocalNetwork: true,
    })
    const bundled = await resolveBrowserConfig({
      dataDir: '/data',
      settings: () => settings,
      overrides: { executablePath: '/usr/bin/chromium' },
    })
    expect(bundled).toMatchObject({
      mode: 'bundled-chromium',
      executablePath: '/usr/bin/chromium',
      headless: true,
      allowLocalNetwork: false,
    })
  })
})

describe('edge-profile mode', () => {
  it('says the profile is in use and offers the Bureau profile, without starting a browser', async () => {
    const profile = await mkdtemp(join(tmpdir(), 'bureau-profile-'))
    try {
      await writeFile(join(profile, 'SingletonLock'), '')
      const config = await resolveBrowserConfig({
        dataDir: '/data',
        settings: () => ({
          mode: 'edge-profile',
          executablePath: '/usr/bin/chromium',
          profileDir: profile,
          cdpEndpoint: null,
          allowLocalNetwork: false,
          searchUrl: 'https://html.duckduckgo.com/html/?q={query}',
        }),
      })
      await expect(launchEdgeProfile(config)).rejects.toThrow(/profile is in use.*Start Edge for Bureau/s)
    } finally {
      await rm(profile, { recursive: true, force: true })
    }
  })
})
