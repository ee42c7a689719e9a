import type { Browser, BrowserContext, CDPSession } from 'playwright-core'
import { type Owner, PausedRequest, refusalOf, report } from './pausedRequest'
import type { RefusalSink } from './refusals'
import { CLOSED_AT_OPEN, type RequestGuard } from './requestGuard'
import type { RequestVerdicts } from './requestVerdicts'
import {
  SOCKET_CHECK_BINDING,
  SOCKET_GUARD_SCRIPT,
  socketCheckOf,
  socketRefusal,
  socketVerdictExpression,
} from './socketGuard'

export interface BrowserRequestGuardOptions {
  verdicts: RequestVerdicts
  /** Where refusals in frames and workers that belong to no known tab go. */
  unattributed: RefusalSink
  /**
   * Make each tab skip service workers (a user profile has them; one would answer requests before the
   * guard sees them). A fresh profile with service workers blocked needs no such thing.
   */
  bypassServiceWorkers: boolean
}

/**
 * For a browser Bureau launched itself: every request of every tab, frame and worker is paused with
 * the DevTools Fetch domain on the browser target and checked before it is sent. Playwright's
 * `page.route` is not used: it sees only the first URL of a redirect chain (later hops are continued
 * unchecked) and not a new tab's first navigation, while Fetch pauses every hop and every tab from
 * its first request.
 */
export async function guardBrowserRequests(
  browser: Browser,
  options: BrowserRequestGuardOptions,
): Promise<RequestGuard> {
  const session: CDPSession = await browser.newBrowserCDPSession()
  const { verdicts } = options
  const owners = new Map<string, Owner>()
  /** New tabs closed because their first page was refused: never taken over. */
  const closed = new Set<string>()
  /** Contexts whose documents all get the socket guard script (popups and frames from their start). */
  const scripted = new WeakSet<BrowserContext>()

  /** The owner of a tab's main frame; a tab opened by one of Bureau's tabs is adopted on its first request. */
  async function ownerOf(frameId: string | undefined, isDocument: boolean): Promise<Owner | undefined> {
    if (!frameId) return undefined
    const known = owners.get(frameId)
    if (known || !isDocument) return known
    const info = await session.send('Target.getTargetInfo', { targetId: frameId }).then(
      (answer) => answer.targetInfo,
      () => null, // a frame inside a page is not a target
    )
    const opener = info?.type === 'page' && info.openerId ? owners.get(info.openerId) : undefined
    if (!opener) return undefined
    const popup: Owner = { sink: opener.sink, claimed: false }
    owners.set(frameId, popup)
    return popup
  }

  async function decide(event: PausedRequest) {
    const url = event.request.url
    const isDocument = event.resourceType === 'Document'
    const owner = await ownerOf(event.frameId, isDocument).catch(() => undefined)
    const tabNavigation = isDocument && owner !== undefined
    const refusal = await refusalOf(verdicts, url, tabNavigation)
    if (refusal === null) {
      await session.send('Fetch.continueRequest', { requestId: event.requestId }).catch(() => {})
      return
    }
    // Told before the request fails, so whoever sees the failure finds the reason already there.
    if (owner) report(owner, url, refusal, tabNavigation)
    else options.unattributed({ kind: 'request', url, message: refusal })
    await session
      .send('Fetch.failRequest', { requestId: event.requestId, errorReason: 'BlockedByClient' })
      .catch(() => {})
    if (tabNavigation && owner && !owner.claimed && event.frameId) {
      owners.delete(event.frameId)
      closed.add(event.frameId)
      await session.send('Target.closeTarget', { targetId: event.frameId }).catch(() => {})
    }
  }

  /**
   * A WebSocket of a tab asks before it connects (over the tab's binding); the answer goes back to the
   * realm that asked. A document that started before the binding was added (a popup's first page, an
   * out-of-process frame) has no way to ask: its WebSockets are refused in the page.
   */
  async function answerSocket(tabSession: CDPSession, targetId: string, event: unknown) {
    const check = socketCheckOf(event)
    if (!check) return
    const refusal = await socketRefusal(verdicts, check.url)
    const owner = owners.get(targetId)
    if (refusal !== null) {
      if (owner) report(owner, check.url, refusal, false)
      else options.unattributed({ kind: 'request', url: check.url, message: refusal })
    }
    await tabSession
      .send('Runtime.evaluate', {
        expression: socketVerdictExpression(check.id, refusal),
        contextId: check.contextId,
      })
      .catch(() => {})
  }

  session.on('Fetch.requestPaused', (event) => {
    const parsed = PausedRequest.safeParse(event)
    if (parsed.success) void decide(parsed.data)
  })
  await session.send('Fetch.enable', { patterns: [{ urlPattern: '*', requestStage: 'Request' }] })

  return {
    async own(page, reports) {
      const context = page.context()
      // Kept open for the tab's life: the binding and settings last as long as the session.
      const tabSession = await context.newCDPSession(page)
      const { targetId } = (await tabSession.send('Target.getTargetInfo')).targetInfo
      if (closed.has(targetId)) {
        await tabSession.detach().catch(() => {})
        throw new Error(CLOSED_AT_OPEN)
      }
      if (!scripted.has(context)) {
        // The whole browser is Bureau's: the context's script reaches every tab and frame from its start.
        scripted.add(context)
        await context.addInitScript({ content: SOCKET_GUARD_SCRIPT })
      }
      if (options.bypassServiceWorkers) {
        await tabSession.send('Network.enable')
        await tabSession.send('Network.setBypassServiceWorker', { bypass: true })
      }
      tabSession.on('Runtime.bindingCalled', (event) => {
        void answerSocket(tabSession, targetId, event)
      })
      // Chromium adds bindings to new documents only while Runtime is enabled.
      await tabSession.send('Runtime.enable')
      await tabSession.send('Runtime.addBinding', { name: SOCKET_CHECK_BINDING })
      const popup = owners.get(targetId)
      if (popup) {
        popup.sink = reports.refused
        popup.claimed = true
      } else owners.set(targetId, { sink: reports.refused, claimed: true })
      // Fetch's events come over Playwright's own connection here: its commits are in the same order.
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame()) reports.committed(frame.url())
      })
      page.once('close', () => owners.delete(targetId))
    },
    async close() {
      await session.detach().catch(() => {})
    },
  }
}
