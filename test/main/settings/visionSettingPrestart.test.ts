import { existsSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openSettings } from '../../../src/main/settings'
import { visionSettingIsOff } from '../../../src/main/settings/prestart'
import { tempDirs } from '../../support/tempDir'

const dirs = tempDirs()
afterEach(() => dirs.cleanup())

async function withSettingsFile(text: string): Promise<string> {
  const dataDir = await dirs.make()
  await writeFile(join(dataDir, 'settings.json'), text)
  return dataDir
}

describe('visionSettingIsOff (attachments.vision without the settings service)', () => {
  it('no data folder, or no settings.json: off (the default), and nothing is created', async () => {
    const missing = join(await dirs.make(), 'not-yet')
    expect(visionSettingIsOff(missing)).toBe(true)
    expect(existsSync(missing)).toBe(false)
  })

  it('a current file: off when it says off or says nothing, not when it says when-supported', async () => {
    expect(visionSettingIsOff(await withSettingsFile('{"schemaVersion":1}'))).toBe(true)
    expect(
      visionSettingIsOff(await withSettingsFile('{"schemaVersion":1,"attachments":{"vision":"off"}}')),
    ).toBe(true)
    expect(
      visionSettingIsOff(
        await withSettingsFile('{"schemaVersion":1,"attachments":{"vision":"when-supported"}}'),
      ),
    ).toBe(false)
  })

  it('leaves the settings service to decide on a damaged file, another version or a bad value', async () => {
    for (const text of [
      '{"schemaVersion":1,',
      '[]',
      '{"attachments":{"vision":"off"}}',
      '{"schemaVersion":2,"attachments":{"vision":"off"}}',
      '{"schemaVersion":1,"attachments":{"vision":"sometimes"}}',
      '{"schemaVersion":1,"attachments":"off"}',
    ])
      expect(visionSettingIsOff(await withSettingsFile(text)), text).toBe(false)
  })

  it('agrees with the settings service on what it answers', async () => {
    for (const text of ['{"schemaVersion":1}', '{"schemaVersion":1,"attachments":{"vision":"off"}}']) {
      const dataDir = await withSettingsFile(text)
      const settings = await openSettings({ dataDir, env: () => undefined, notify: () => {} })
      expect(settings.get().attachments.vision).toBe('off')
      expect(visionSettingIsOff(dataDir)).toBe(true)
    }
  })
})
