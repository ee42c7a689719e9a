import { describe, expect, it } from 'vitest'
import { HEADLESS_FLAGS, startFlagsFromEnv } from '../../../src/main/browser/config/launchFlags'

describe('BUREAU_BROWSER_HEADLESS', () => {
  it('starts the Bureau browser headless only when it is 1', () => {
    expect(startFlagsFromEnv({ BUREAU_BROWSER_HEADLESS: '1' })).toEqual(HEADLESS_FLAGS)
    expect(startFlagsFromEnv({})).toEqual([])
    expect(startFlagsFromEnv({ BUREAU_BROWSER_HEADLESS: '0' })).toEqual([])
  })
})
