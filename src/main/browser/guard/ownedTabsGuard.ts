import { z } from 'zod'
import { type CdpWire, openCdpWire } from './cdpWire'
import { type Owner, PausedRequest, refusalOf, report, targetInfoOf } from './pausedRequest'
import { CLOSED_AT_OPEN, type RequestGuard } from './requestGuard'
import type { RequestVerdicts } from './requestVerdicts'
import {
  SOCKET_CHECK_BINDING,
  SOCKET_GUARD_SCRIPT,
  socketCheckOf,
  socketRefusal,
  socketVerdictExpression,
} from './socketGuard'

const AttachedToTarget = z.object({
  sessionId: z.string(),
  targetInfo: z.object({
    targetId: z.string(),
    type: z.string(),
    url: z.string(),
    openerId: z.string().optional(),
  }),
})
const DetachedFromTarget = z.object({ sessionId: z.string() })
const FrameNavigated = z.object({
  frame: z.object({ id: z.string(), parentId: z.string().optional(), url: z.string() }),
})

/** A DevTools session on one of Bureau's tabs or on a frame of one (out-of-process iframes are targets too). */
interface Guarded {
  owner: Owner
  targetId: string
  /** A tab: a document request in its main frame is the tab's own navigation. */
  isTab: boolean
}

// Service and shared workers fetch outside the tab's checks and serve the user's tabs too: pages Bureau
// drives may neither start one nor talk to one (their requests also skip the workers already there).
// Dedicated workers are off as well: their WebSockets skip the page's socket guard, and DevTools cannot
// hold a worker until it is guarded (Playwright's own session lets every worker run at once).
const NO_OWN_WORKERS = `(() => {
  if (self.ServiceWorkerContainer) delete Navigator.prototype.serviceWorker
  const off = (name, label) => {
    if (self[name]) Object.defineProperty(self, name, { value: function () {
      throw new DOMException(label + ' are off in pages Bureau drives in your browser.', 'SecurityError')
    } })
  }
  off('SharedWorker', 'Shared workers')
  off('Worker', 'Workers')
})()`

/**
 * Targets a guarded tab brings along that are not guarded themselves: its dedicated workers fetch
 * through the tab's own session; service and shared workers belong to the profile (the user's tabs
 * use them), and Bureau's pages are kept away from them.
 */
const LEFT_ALONE = new Set(['worker', 'service_worker', 'shared_worker'])

export interface OwnedTabsGuardOptions {
  /** The browser's DevTools endpoint (http://host:port or ws://...). */
  endpoint: string
  verdicts: RequestVerdicts
  /** The connection to the browser broke: Bureau's tabs are no longer guarded. */
  onLost: () => void
}

/**
 * For the user's own browser (cdp): only Bureau's tabs, the tabs they open and their frames are
 * guarded, each on a DevTools session of its own with the Fetch domain (every request, every redirect
 * hop, paused until it is checked). The user's tabs are never intercepted: a new tab is held only
 * until Bureau has seen whether one of its tabs opened it (as Playwright already does for every tab).
 */
export async function guardOwnedTabs(options: OwnedTabsGuardOptions): Promise<RequestGuard> {
  const { verdicts } = options
  const wire: CdpWire = await openCdpWire(options.endpoint)
  wire.onLost(options.onLost)
  /** Bureau's tabs (and the tabs they opened) by target id. */
  const owners = new Map<string, Owner>()
  /** Targets Bureau is attaching to itself: their attach events are not new tabs. */
  const attaching = new Set<string>()
  const sessions = new Map<string, Guarded>()
  /** New tabs closed because their first page was refused: never taken over. */
  const closed = new Set<string>()

  /** Lets a target run and leaves it alone. */
  function letGo(sessionId: string) {
    void wire.send('Runtime.runIfWaitingForDebugger', {}, sessionId).catch(() => {})
    void wire.send('Target.detachFromTarget', { sessionId }).catch(() => {})
  }

  /**
   * Every request of the target is paused from now on, then the target runs. Fetch and auto-attach are
   * answered by the browser and awaited first; the rest is answered by the page, which a target held
   * at its start only does once it runs: sent before it runs (so in effect for its first document),
   * awaited after. Rejects when something could not be set up (the caller closes or holds the target).
   */
  async function guardSession(sessionId: string, guarded: Guarded, held: boolean) {
    sessions.set(sessionId, guarded)
    try {
      await wire.send('Fetch.enable', { patterns: [{ urlPattern: '*', requestStage: 'Request' }] }, sessionId)
      // Out-of-process frames and what else the tab starts: held until guarded too.
      await wire.send(
        'Target.setAutoAttach',
        { autoAttach: true, waitForDebuggerOnStart: true, flatten: true },
        sessionId,
      )
      const inPage = Promise.all([
        // A service worker of the user's profile would answer before Fetch sees the request.
        wire.send('Network.enable', {}, sessionId),
        wire.send('Network.setBypassServiceWorker', { bypass: true }, sessionId),
        // The script runs only in sessions with the Page domain on.
        wire.send('Page.enable', {}, sessionId),
        wire.send(
          'Page.addScriptToEvaluateOnNewDocument',
          { source: NO_OWN_WORKERS, runImmediately: true },
          sessionId,
        ),
        // WebSockets wait for the URL guard (asked over this binding); WebRTC is removed.
        // (Chromium adds bindings to new documents only while Runtime is enabled.)
        wire.send('Runtime.enable', {}, sessionId),
        wire.send('Runtime.addBinding', { name: SOCKET_CHECK_BINDING }, sessionId),
        wire.send(
          'Page.addScriptToEvaluateOnNewDocument',
          { source: SOCKET_GUARD_SCRIPT, runImmediately: true },
          sessionId,
        ),
      ])
      inPage.catch(() => {})
      if (held) void wire.send('Runtime.runIfWaitingForDebugger', {}, sessionId).catch(() => {})
      await inPage
    } catch (error) {
      sessions.delete(sessionId)
      throw error
    }
  }

  async function onNewTab(sessionId: string, info: z.infer<typeof AttachedToTarget>['targetInfo']) {
    if (attaching.has(info.targetId) || owners.has(info.targetId)) return
    const opener = info.openerId ? owners.get(info.openerId) : undefined
    if (!opener) return letGo(sessionId)
    const owner: Owner = { sink: opener.sink, claimed: false }
    owners.set(info.targetId, owner)
    try {
      await guardSession(sessionId, { owner, targetId: info.targetId, isTab: true }, true)
    } catch (error) {
      owners.delete(info.targetId)
      owner.sink({
        kind: 'popup',
        url: info.url || 'about:blank',
        message: `A tab the page opened could not be put under the URL guard (${error instanceof Error ? error.message : String(error)}).`,
      })
      await wire.send('Target.closeTarget', { targetId: info.targetId }).catch(() => {})
    }
  }

  async function onChild(
    parent: Guarded,
    sessionId: string,
    info: z.infer<typeof AttachedToTarget>['targetInfo'],
  ) {
    if (LEFT_ALONE.has(info.type)) return letGo(sessionId)
    try {
      await guardSession(sessionId, { owner: parent.owner, targetId: info.targetId, isTab: false }, true)
    } catch (error) {
      // Without Fetch the frame stays held and never loads; with it, its requests are still checked.
      parent.owner.sink({
        kind: 'request',
        url: info.url || 'about:blank',
        message: `A frame could not be fully put under the URL guard (${error instanceof Error ? error.message : String(error)}).`,
      })
    }
  }

  wire.on('Target.attachedToTarget', (params, parentSessionId) => {
    const parsed = AttachedToTarget.safeParse(params)
    if (!parsed.success) return
    const { sessionId, targetInfo } = parsed.data
    if (parentSessionId === undefined) return void onNewTab(sessionId, targetInfo)
    const parent = sessions.get(parentSessionId)
    if (parent) void onChild(parent, sessionId, targetInfo)
    else letGo(sessionId)
  })
  wire.on('Target.detachedFromTarget', (params) => {
    const parsed = DetachedFromTarget.safeParse(params)
    if (parsed.success) sessions.delete(parsed.data.sessionId)
  })

  async function decide(sessionId: string, guarded: Guarded, event: PausedRequest) {
    const url = event.request.url
    const tabNavigation =
      guarded.isTab && event.resourceType === 'Document' && event.frameId === guarded.targetId
    const refusal = await refusalOf(verdicts, url, tabNavigation)
    if (refusal === null) {
      await wire.send('Fetch.continueRequest', { requestId: event.requestId }, sessionId).catch(() => {})
      return
    }
    // Told before the request fails, so whoever sees the failure finds the reason already there.
    const { owner } = guarded
    report(owner, url, refusal, tabNavigation)
    await wire
      .send('Fetch.failRequest', { requestId: event.requestId, errorReason: 'BlockedByClient' }, sessionId)
      .catch(() => {})
    if (tabNavigation && !owner.claimed) {
      owners.delete(guarded.targetId)
      closed.add(guarded.targetId)
      await wire.send('Target.closeTarget', { targetId: guarded.targetId }).catch(() => {})
    }
  }

  wire.on('Fetch.requestPaused', (params, sessionId) => {
    const parsed = PausedRequest.safeParse(params)
    if (!parsed.success || !sessionId) return
    const guarded = sessions.get(sessionId)
    // Fetch is on only in guarded sessions; a request of one that just went away is refused.
    if (guarded) void decide(sessionId, guarded, parsed.data)
    else
      void wire
        .send(
          'Fetch.failRequest',
          { requestId: parsed.data.requestId, errorReason: 'BlockedByClient' },
          sessionId,
        )
        .catch(() => {})
  })

  // Commits come over this connection too, in order with the refusals; Playwright's (another
  // connection) may tell of a commit only after a refusal of the navigation that followed it.
  wire.on('Page.frameNavigated', (params, sessionId) => {
    const parsed = FrameNavigated.safeParse(params)
    const guarded = sessionId ? sessions.get(sessionId) : undefined
    if (!parsed.success || !guarded?.isTab) return
    const { frame } = parsed.data
    if (frame.parentId === undefined && frame.id === guarded.targetId) guarded.owner.committed?.(frame.url)
  })

  /** A WebSocket of a guarded page asks before it connects; the answer goes back to the realm that asked. */
  async function answerSocket(sessionId: string, params: unknown) {
    const check = socketCheckOf(params)
    if (!check) return
    const guarded = sessions.get(sessionId)
    const refusal = guarded
      ? await socketRefusal(verdicts, check.url)
      : 'the tab is no longer under the URL guard'
    if (refusal !== null && guarded) report(guarded.owner, check.url, refusal, false)
    await wire
      .send(
        'Runtime.evaluate',
        {
          expression: socketVerdictExpression(check.id, refusal),
          contextId: check.contextId,
        },
        sessionId,
      )
      .catch(() => {})
  }
  wire.on('Runtime.bindingCalled', (params, sessionId) => {
    if (sessionId) void answerSocket(sessionId, params)
  })

  // Every new tab is held until Bureau knows whether one of its tabs opened it.
  await wire.send('Target.setAutoAttach', {
    autoAttach: true,
    waitForDebuggerOnStart: true,
    flatten: true,
    filter: [{ type: 'page', exclude: false }],
  })

  return {
    async own(page, reports) {
      const { targetId, url } = await targetInfoOf(page)
      if (closed.has(targetId)) throw new Error(CLOSED_AT_OPEN)
      page.once('close', () => owners.delete(targetId))
      const popup = owners.get(targetId)
      if (popup) {
        // Guarded since it was opened: now its refusals are its own.
        popup.sink = reports.refused
        popup.committed = reports.committed
        popup.claimed = true
        return
      }
      // A tab that already loaded something outside the guard is not taken over.
      if (url !== 'about:blank' && url !== '')
        throw new Error(`the tab already shows ${url.slice(0, 80)}, loaded before it could be guarded`)
      const owner: Owner = { sink: reports.refused, claimed: true, committed: reports.committed }
      owners.set(targetId, owner)
      attaching.add(targetId)
      try {
        const answer = z
          .object({ sessionId: z.string() })
          .parse(await wire.send('Target.attachToTarget', { targetId, flatten: true }))
        await guardSession(answer.sessionId, { owner, targetId, isTab: true }, false)
      } catch (error) {
        owners.delete(targetId)
        throw error
      } finally {
        attaching.delete(targetId)
      }
    },
    close: () => wire.close(),
  }
}
