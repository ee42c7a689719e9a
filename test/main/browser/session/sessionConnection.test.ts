import type { Browser } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { createRequestVerdicts } from '../../../../src/main/browser/guard/requestVerdicts'
import { SessionConnection } from '../../../../src/main/browser/session/sessionConnection'
import type { BrowserConfig, BrowserConnection } from '../../../../src/main/browser/types'
import type { UrlGuard } from '../../../../src/main/tools'

const config = { mode: 'bundled-chromium', cdpEndpoint: null } as unknown as BrowserConfig
const guard: UrlGuard = {
  check: async (input) => new URL(String(input)),
  fetch: () => Promise.reject(new Error('unused')),
  resolve: () => Promise.reject(new Error('unused')),
}

/** A connection whose browser cannot open a DevTools session, so the request guard cannot be set up. */
function unguardable() {
  const state = { closed: 0 }
  const browser = { newBrowserCDPSession: () => Promise.reject(new Error('no DevTools here')) }
  const connection = {
    mode: 'bundled-chromium',
    browser: browser as unknown as Browser,
    newPage: () => Promise.reject(new Error('unused')),
    close: async () => {
      state.closed++
    },
  } as unknown as BrowserConnection
  return { connection, state }
}

function sessionConnection(connect: (c: BrowserConfig) => Promise<BrowserConnection>) {
  return new SessionConnection({
    config: async () => config,
    verdicts: async () => createRequestVerdicts(guard),
    unattributed: () => {},
    closeGuardedPages: async () => {},
    connect,
  })
}

describe('SessionConnection', () => {
  it('closes a browser it cannot guard, says why, and connects afresh on the next use', async () => {
    const attempts: ReturnType<typeof unguardable>[] = []
    const connection = sessionConnection(async () => {
      const next = unguardable()
      attempts.push(next)
      return next.connection
    })
    await expect(connection.attach()).rejects.toThrow(
      /could not be put under the URL guard, so it is not used: .*no DevTools here/,
    )
    expect(attempts.map((a) => a.state.closed)).toEqual([1])
    await expect(connection.attach()).rejects.toThrow(/URL guard/)
    expect(attempts).toHaveLength(2)
  })

  it('does not connect after dispose', async () => {
    let connects = 0
    const connection = sessionConnection(async () => {
      connects++
      return unguardable().connection
    })
    expect(await connection.dispose()).toBeNull()
    await expect(connection.attach()).rejects.toMatchObject({ code: 'UNAVAILABLE' })
    expect(connects).toBe(0)
  })
})
