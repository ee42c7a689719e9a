import { readdir } from 'node:fs/promises'
import { afterEach, describe, expect, it } from 'vitest'
import { currentWorkspace } from '../../../src/main/workspace'
import { tempDirs } from '../../support/tempDir'

const dirs = tempDirs('bureau-current-ws-')
afterEach(() => dirs.cleanup())

const backups = async (root: string) => (await readdir(root)).filter((name) => name.endsWith('.bak')).sort()

describe('the app workspace follows the settings', () => {
  it('keeps the number of backups the setting asks for, and reopens when it changes', async () => {
    const root = await dirs.make()
    let keep = 2
    const current = currentWorkspace({ root: () => root, backupsToKeep: () => keep })
    try {
      const first = current.get()
      for (let i = 0; i < 5; i++) await first.writeFile('/report.txt', `version ${i}`)
      expect(await backups(root)).toEqual(['report.003.bak', 'report.004.bak'])
      expect(current.get()).toBe(first)
      keep = 4
      const second = current.get()
      expect(second).not.toBe(first)
      for (let i = 5; i < 8; i++) await second.writeFile('/report.txt', `version ${i}`)
      expect(await backups(root)).toHaveLength(4)
    } finally {
      await current.close()
    }
  })
})
