import { afterEach, describe, expect, it } from 'vitest'
import { type BureauApp, createApp } from '../../../src/main/app'
import { silentLogger } from '../../../src/main/platform'
import { tempDirs } from '../../support/tempDir'

const dirs = tempDirs()
const apps: BureauApp[] = []
const ctx = { senderId: 'test', signal: new AbortController().signal }

async function app(pickFolder?: () => Promise<string | null>): Promise<BureauApp> {
  const made = await createApp({
    host: pickFolder ? 'electron' : 'web',
    dataDir: await dirs.make(),
    workspaceDir: await dirs.make(),
    logger: silentLogger,
    ...(pickFolder && { pickFolder }),
  })
  apps.push(made)
  return made
}

afterEach(async () => {
  for (const made of apps.splice(0)) await made.dispose()
  await dirs.cleanup()
})

describe('ui.pickFolder', () => {
  it('is unsupported in the web host, with what to do instead', async () => {
    const result = await (await app()).router.dispatch('ui.pickFolder', {}, ctx)
    expect(result).toEqual({
      ok: false,
      error: { code: 'UNSUPPORTED', message: expect.stringContaining('type the folder path instead') },
    })
  })

  it("returns the desktop dialog's choice, or null when cancelled", async () => {
    const picks: Array<string | null> = ['/home/me/Reports', null]
    const desktop = await app(async () => picks.shift() ?? null)
    expect(await desktop.router.dispatch('ui.pickFolder', { title: 'Workspace' }, ctx)).toEqual({
      ok: true,
      value: { path: '/home/me/Reports' },
    })
    expect(await desktop.router.dispatch('ui.pickFolder', {}, ctx)).toEqual({
      ok: true,
      value: { path: null },
    })
  })
})
