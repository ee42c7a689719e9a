import type { Page } from '@playwright/test'
import {
  type ChatRequestInfo,
  type ChatResponder,
  type ScriptedLlm,
  startScriptedLlm,
  type Turn,
} from '../../test/support/scriptedLlm'
import { scriptedProviderEnv } from '../../test/support/scriptedProviderEnv'
import { type BureauServer, startBureau } from './bureauServer'
import { SHARED_HOST_ENV } from './sharedHost'
import { expect, test } from './test'

export interface ScriptedHostOptions {
  /** The API key the scripted model expects, when the spec starts its own host (so a leak names the spec). */
  key: string
  /**
   * Extra environment for the host. Without one, or with `{ BUREAU_INTERACTION_MODE: 'api' }` (what the
   * worker's shared host runs with), the spec takes turns on the shared host; any other starts its own.
   */
  env?: Record<string, string>
  /** Start a host of the spec's own even when the shared one would do (the spec needs a fresh data folder). */
  ownHost?: boolean
  /** The answer for every request, restored before each test. */
  responder?: ChatResponder
  /** Index the workspace in the background (the knowledge spec); other specs start with `--no-index`. */
  index?: boolean
  /** Runs once the host is up (e.g. settings the whole spec needs). */
  afterStart?: (host: ScriptedHost) => Promise<void>
}

export interface ScriptedHost {
  readonly llm: ScriptedLlm
  readonly bureau: BureauServer
  /** Answers the n-th chat request of the test with turns[n] (the last one repeats). */
  script(...turns: Array<Turn | ((info: ChatRequestInfo) => Turn)>): void
  /** Calls a contract route as the UI would, with the host's token. */
  ipc(route: string, body: unknown): Promise<unknown>
}

/**
 * One scripted model and one `bureau serve` for the spec file: the worker's shared host, reset to its
 * first state before the spec's first test, or (for a knowledge index, other environment, or `ownHost`)
 * a host of its own, started before the first test and stopped after the last. Before each test the
 * script is cleared and the chat is empty (the app would otherwise reopen the previous test's conversation).
 */
export function scriptedHostForSpec(options: ScriptedHostOptions): ScriptedHost {
  let llm: ScriptedLlm | undefined
  let bureau: BureauServer | undefined
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the scripted host is used before beforeAll started it')
    return value
  }
  const host: ScriptedHost = {
    get llm() {
      return started(llm)
    },
    get bureau() {
      return started(bureau)
    },
    script(...turns) {
      let n = 0
      host.llm.setResponder((info) => {
        const turn = turns[Math.min(n++, turns.length - 1)]
        if (turn === undefined) throw new Error('script() needs at least one turn')
        return typeof turn === 'function' ? turn(info) : turn
      })
    },
    async ipc(route, body) {
      const response = await fetch(`${host.bureau.url}/ipc/${route}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${host.bureau.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      if (!response.ok) throw new Error(`${route}: ${response.status} ${await response.text()}`)
      return response.json()
    },
  }
  const env = options.env ?? {}
  const shared =
    !options.ownHost &&
    !options.index &&
    Object.entries(env).every(([k, v]) => (SHARED_HOST_ENV as Record<string, string>)[k] === v)
  const ready = async () => {
    if (options.responder) host.llm.setResponder(options.responder)
    await options.afterStart?.(host)
  }
  // Two hooks rather than one that checks: asking for the shared host starts it.
  if (shared) {
    test.beforeAll(async ({ sharedHost }) => {
      await sharedHost.reset()
      llm = sharedHost.llm
      bureau = sharedHost.bureau
      await ready()
    })
  } else {
    test.beforeAll(async () => {
      llm = await startScriptedLlm({ models: ['scripted-model'] })
      bureau = await startBureau([], scriptedProviderEnv(llm, options.key, env), {
        index: options.index ?? false,
      })
      await ready()
    })
    test.afterAll(async () => {
      await bureau?.stop()
      await llm?.close()
    })
  }
  test.beforeEach(async () => {
    host.llm.reset()
    if (options.responder) host.llm.setResponder(options.responder)
    await host.bureau.freshChat()
  })
  return host
}

/**
 * Waits until no answer is running: Send alone is not enough, it shows (disabled, with a spinner)
 * between Enter and the run's start too, and a question typed then is not sent.
 */
export async function waitUntilIdle(page: Page, timeout = 20_000): Promise<void> {
  await expect(page.locator('.message-assistant[data-status="streaming"]')).toHaveCount(0, { timeout })
  await expect(page.getByRole('button', { name: 'Stop' })).toHaveCount(0, { timeout })
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible({ timeout })
}

/**
 * Types a question in the message box and sends it with Enter, once Send is enabled: Enter while an
 * answer still streams is ignored (the text stays in the box), as it would be for a user.
 */
export async function ask(page: Page, text: string, timeout = 20_000): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' })
  await box.fill(text)
  await expect(page.getByRole('button', { name: 'Send' })).toBeEnabled({ timeout })
  await box.press('Enter')
}
