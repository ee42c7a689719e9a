import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { resolveWorkspaceDir } from '../../../src/main/settings/workspaceFolder'

const home = '/home/tester'
const noEnv = () => undefined

describe('workspace folder precedence', () => {
  it('flag > BUREAU_WORKSPACE > setting > ~/Bureau', () => {
    const env = (name: string) => (name === 'BUREAU_WORKSPACE' ? '/from/env' : undefined)
    expect(resolveWorkspaceDir({ flag: '/from/flag', settingsFolder: '/from/settings', env, home })).toEqual({
      dir: '/from/flag',
      source: 'flag',
    })
    expect(resolveWorkspaceDir({ settingsFolder: '/from/settings', env, home })).toEqual({
      dir: '/from/env',
      source: 'env',
    })
    expect(resolveWorkspaceDir({ settingsFolder: '/from/settings', env: noEnv, home })).toEqual({
      dir: '/from/settings',
      source: 'settings',
    })
    expect(resolveWorkspaceDir({ settingsFolder: null, env: noEnv, home })).toEqual({
      dir: join(home, 'Bureau'),
      source: 'default',
    })
  })

  it('expands ~ and reads relative settings from the home folder, relative flags from the cwd', () => {
    expect(resolveWorkspaceDir({ settingsFolder: '~/Docs/Work', env: noEnv, home }).dir).toBe(
      join(home, 'Docs/Work'),
    )
    expect(resolveWorkspaceDir({ settingsFolder: 'Work', env: noEnv, home }).dir).toBe(join(home, 'Work'))
    expect(resolveWorkspaceDir({ flag: 'ws', settingsFolder: null, env: noEnv, home }).dir).toBe(
      resolve('ws'),
    )
  })
})
