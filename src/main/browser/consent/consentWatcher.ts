import { setTimeout as sleep } from 'node:timers/promises'
import type { Frame, Page } from 'playwright-core'
import type { Logger } from '../../platform'
import { loadAutoconsentAssets } from './autoconsentAssets'

/** What happened to a cookie banner on the current document. */
export interface ConsentOutcome {
  /** The consent manager found, e.g. "Onetrust" or "HEURISTIC". */
  cmp?: string
  /** True when the opt-out ran and succeeded. */
  optedOut?: boolean
}

interface FrameState {
  initialized: boolean
  lifecycle: string
  attempts: number
  outcome: ConsentOutcome
}

const CONFIG = {
  enabled: true,
  autoAction: 'optOut',
  disabledCmps: [],
  enablePrehide: true,
  enableCosmeticRules: true,
  enableGeneratedRules: true,
  enableHeuristicDetection: true,
  heuristicMode: 'tier2',
  // Its performance marks tell when the text heuristic has run (see HEURISTIC_RAN).
  performanceLoggingEnabled: true,
  detectRetries: 20,
  isMainWorld: true,
  prehideTimeout: 2000,
  logs: {
    lifecycle: false,
    rulesteps: false,
    detectionsteps: false,
    evals: false,
    errors: false,
    messages: false,
    waits: false,
  },
}

const CONSENT_WORDS = `/cookie|consent|gdpr|datenschutz|privacy|tracking/i.test(document.body?.innerText ?? '')`

/** Set in a document once its first message is answered (it outlives a same-document navigation). */
const ANSWERED_MARK = '__bureauConsentAnswered'
/**
 * autoconsent's content script started in this document (it sends its first message as it starts) and
 * that message is not answered yet: it is on its way. After a same-document navigation (pushState) the
 * mark is there and no new first message will come.
 */
const SCRIPT_STARTED = `typeof window.autoconsentReceiveMessage === 'function' && !window.${ANSWERED_MARK}`

/**
 * The text heuristic ran in this document (attempt 2 runs it, a task or more after reporting the
 * attempt): had it found a banner, its cmpDetected report was sent before this reads true.
 */
const HEURISTIC_RAN = `performance.getEntriesByName('heuristicDetector').length > 0`

const FINISHED = new Set(['done', 'optOutSucceeded', 'optOutFailed', 'nothingDetected'])
const BUSY = new Set(['cmpDetected', 'openPopupDetected', 'runningOptOut'])

type Message = {
  type?: string
  id?: string
  code?: string
  url?: string
  cmp?: string
  result?: boolean
  state?: { lifecycle?: string; findCmpAttempts?: number }
}

/**
 * Runs DuckDuckGo's autoconsent in the pages Bureau drives: it detects the consent manager (rules for
 * hundreds of CMPs plus a text heuristic) and clicks the opt-out. `settle` waits until it is done.
 */
export interface ConsentWatcher {
  attach(page: Page): Promise<void>
  /** Waits (at most `budgetMs`) until the banner on the current document is handled or known absent. */
  settle(page: Page, budgetMs: number): Promise<ConsentOutcome | undefined>
}

export function createConsentWatcher(logger?: Logger): ConsentWatcher {
  const states = new WeakMap<Page, FrameState>()

  const reply = (frame: Frame, message: unknown) =>
    frame
      .evaluate(
        (m) =>
          (
            window as unknown as { autoconsentReceiveMessage?: (x: unknown) => unknown }
          ).autoconsentReceiveMessage?.(m),
        message,
      )
      .catch(() => {})

  return {
    async attach(page) {
      let assets: Awaited<ReturnType<typeof loadAutoconsentAssets>>
      try {
        assets = await loadAutoconsentAssets()
      } catch (error) {
        logger?.warn('autoconsent is unavailable; cookie banners stay', { error: String(error) })
        return
      }
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame())
          states.set(page, { initialized: false, lifecycle: 'loading', attempts: 0, outcome: {} })
      })
      await page.exposeBinding('autoconsentSendMessage', async (source, raw: unknown) => {
        const message = (raw ?? {}) as Message
        const frame = source.frame
        const main = frame === page.mainFrame()
        if (message.type === 'init') {
          if (main)
            states.set(page, { initialized: true, lifecycle: 'initialized', attempts: 0, outcome: {} })
          await reply(frame, {
            type: 'initResp',
            config: CONFIG,
            rules: assets.rulesFor(message.url ?? frame.url(), main),
          })
          await frame.evaluate(`window.${ANSWERED_MARK} = true`).catch(() => {})
          return
        }
        if (message.type === 'eval' && message.code) {
          const result = await frame.evaluate(message.code).catch(() => false)
          await reply(frame, { type: 'evalResp', id: message.id, result: Boolean(result) })
          return
        }
        const state = main ? states.get(page) : undefined
        if (!state) return
        if (message.type === 'report' && message.state) {
          state.lifecycle = message.state.lifecycle ?? state.lifecycle
          state.attempts = message.state.findCmpAttempts ?? state.attempts
        } else if (message.type === 'popupFound' && message.cmp) state.outcome.cmp = message.cmp
        else if (message.type === 'optOutResult') state.outcome.optedOut = message.result === true
      })
      await page.addInitScript({ content: assets.script })
    },

    async settle(page, budgetMs) {
      const deadline = Date.now() + budgetMs
      // A page where the script never started (blocked, restored from cache) is not waited for long.
      const initDeadline = Date.now() + Math.min(budgetMs, 400)
      let mentionsConsent: boolean | undefined
      let scriptStarted: boolean | undefined
      let heuristicRan = false
      while (Date.now() < deadline) {
        const state = states.get(page)
        if (!state?.initialized) {
          // Started but its first message not yet here (a busy machine): wait the whole budget for it.
          if (Date.now() > initDeadline) {
            scriptStarted ??= await page
              .evaluate(SCRIPT_STARTED)
              .then(Boolean)
              .catch(() => false)
            if (!scriptStarted) return undefined
          }
        } else {
          if (FINISHED.has(state.lifecycle)) return state.outcome
          if (!BUSY.has(state.lifecycle)) {
            // Most pages never mention cookies or consent: no banner to wait for (known CMPs are
            // prehidden by autoconsent's CSS meanwhile, so they do not show up in the Markdown either).
            mentionsConsent ??= await page
              .evaluate(CONSENT_WORDS)
              .then(Boolean)
              .catch(() => true)
            if (!mentionsConsent) return state.outcome
            // Nothing found once the text heuristic has run means no banner. (A wall-clock wait after
            // attempt 2 began lost that race on a busy machine.) The check after it is a loop later, so
            // the report the heuristic sent has been read.
            if (state.attempts >= 2) {
              if (heuristicRan) return state.outcome
              heuristicRan = await page
                .evaluate(HEURISTIC_RAN)
                .then(Boolean)
                .catch(() => true)
            }
          }
        }
        await sleep(50)
      }
      return states.get(page)?.outcome
    },
  }
}
