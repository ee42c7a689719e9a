import { execFile } from 'node:child_process'
import { readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'
import { openSettings } from '../../../src/main/settings'
import { repoRoot } from '../../support/builtCli'
import { tempDirs } from '../../support/tempDir'

const run = promisify(execFile)
const dirs = tempDirs()
afterEach(() => dirs.cleanup())

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url))

/** electron-store needs `electron`; the child process resolves it to a stub so it runs in plain Node. */
async function viaElectronStore(dataDir: string, action: 'write' | 'read') {
  const { stdout } = await run(
    process.execPath,
    [
      '--import',
      'tsx',
      '--import',
      fixture('stubElectron.mjs'),
      fixture('electronStoreSettings.ts'),
      dataDir,
      action,
    ],
    { cwd: repoRoot },
  )
  return JSON.parse(stdout) as {
    settings: { ui: { theme: string }; providers: Record<string, unknown> }
    secret?: string
    notices: string[]
  }
}

describe('electron-store backend (desktop) and the atomic file backend (headless) share one file format', () => {
  it('what electron-store wrote, the headless host reads, secrets included', async () => {
    const dataDir = await dirs.make()
    await viaElectronStore(dataDir, 'write')
    const settings = await openSettings({ dataDir, env: () => undefined })
    expect(settings.get().ui.theme).toBe('dark')
    expect(settings.get().providers).toEqual({ deepseek: { model: 'deepseek-chat' } })
    expect(await settings.getSecret('email.smtpPassword')).toBe('pw-from-electron-store')
  })

  it('what the headless host wrote, electron-store reads', async () => {
    const dataDir = await dirs.make()
    const settings = await openSettings({ dataDir, env: () => undefined })
    await settings.update({ ui: { theme: 'light' } })
    await settings.setSecret('email.smtpPassword', 'pw-from-host-1234')
    const seen = await viaElectronStore(dataDir, 'read')
    expect(seen.settings.ui.theme).toBe('light')
    expect(seen.secret).toBe('pw-from-host-1234')
  })

  it('electron-store also moves a corrupt file aside and loads the defaults', async () => {
    const dataDir = await dirs.make()
    await writeFile(join(dataDir, 'settings.json'), '{ not json')
    const seen = await viaElectronStore(dataDir, 'read')
    expect(seen.notices).toEqual(['settings.corrupt'])
    expect(seen.settings.ui.theme).toBe('system')
    expect((await readdir(dataDir)).some((f) => f.startsWith('settings.corrupt-'))).toBe(true)
  })
})
