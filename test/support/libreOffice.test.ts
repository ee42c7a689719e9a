import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { libreOfficeProfilesBuilt, withLibreOfficeProfile } from './libreOffice'

const folderOf = (userInstallation: string) =>
  userInstallation.replace(/^-env:UserInstallation=file:\/\//, '')

describe('the shared LibreOffice profile of a test process', () => {
  it('is built once, holds the recalculation setting, and runs take turns', async () => {
    const before = libreOfficeProfilesBuilt()
    const order: string[] = []
    const slow = withLibreOfficeProfile(async (arg) => {
      order.push('first starts')
      await new Promise((resolve) => setTimeout(resolve, 20))
      order.push('first ends')
      return arg
    })
    const fast = withLibreOfficeProfile(async (arg) => {
      order.push('second starts')
      return arg
    })
    const [a, b] = await Promise.all([slow, fast])
    expect(a).toBe(b)
    expect(a).toMatch(/^-env:UserInstallation=file:\/\/\//)
    expect(order).toEqual(['first starts', 'first ends', 'second starts'])
    expect(readFileSync(`${folderOf(a)}/user/registrymodifications.xcu`, 'utf8')).toContain('OOXMLRecalcMode')
    expect(libreOfficeProfilesBuilt() - before).toBeLessThanOrEqual(1)
  })

  it('a failed run throws its error and the next run gets a new profile', async () => {
    const used = await withLibreOfficeProfile(async (arg) => arg)
    await expect(
      withLibreOfficeProfile(async () => {
        throw new Error('soffice crashed')
      }),
    ).rejects.toThrow('soffice crashed')
    expect(existsSync(folderOf(used))).toBe(false)
    const after = await withLibreOfficeProfile(async (arg) => arg)
    expect(after).not.toBe(used)
    expect(existsSync(folderOf(after))).toBe(true)
  })
})
