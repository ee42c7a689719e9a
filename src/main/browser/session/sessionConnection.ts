import { AppError, isAppError } from '../../../shared/errors'
import type { UrlGuard } from '../../tools'
import { connectBrowser } from '../connect/connectBrowser'
import { shortReason } from '../connect/connectErrors'
import { guardBrowserRequests } from '../guard/browserRequestGuard'
import { type GuardProxy, startGuardProxy } from '../guard/guardProxy'
import { guardOwnedTabs } from '../guard/ownedTabsGuard'
import type { RefusalSink } from '../guard/refusals'
import type { RequestGuard } from '../guard/requestGuard'
import type { RequestVerdicts } from '../guard/requestVerdicts'
import type { BrowserConfig, BrowserConnection, BrowserEnvironment } from '../types'

/** A browser connection whose requests are under the URL guard. */
export interface Attached {
  connection: BrowserConnection
  requests: RequestGuard
}

export interface SessionConnectionOptions {
  config(): Promise<BrowserConfig>
  verdicts(): Promise<RequestVerdicts>
  /** The session's URL guard: a browser Bureau launches connects only through a proxy that asks it. */
  guard?(): Promise<UrlGuard>
  logger?: BrowserEnvironment['logger']
  /** Where a refused request no tab can be named for is told (the active tab). */
  unattributed: RefusalSink
  /** Closes every page Bureau put under the guard: called when the guard's connection broke. */
  closeGuardedPages(): Promise<void>
  connect?: (config: BrowserConfig) => Promise<BrowserConnection>
}

/**
 * The session's one browser connection: opened (and put under the guard) on first use, dropped when the
 * guard loses it so the next use reconnects, refused for good after dispose.
 */
export class SessionConnection {
  private attached: Promise<Attached> | undefined
  private disposed = false

  constructor(private readonly options: SessionConnectionOptions) {}

  attach(): Promise<Attached> {
    if (this.disposed) return Promise.reject(new AppError('UNAVAILABLE', 'This browser session has ended.'))
    this.attached ??= this.open()
    this.attached.catch(() => {
      this.attached = undefined
    })
    return this.attached
  }

  /** Ends the session: no further attach; the open connection (if any) is closed and returned. */
  async dispose(): Promise<Attached | null> {
    this.disposed = true
    const open = this.attached
    this.attached = undefined
    return open ? await open.catch(() => null) : null
  }

  private async open(): Promise<Attached> {
    const c = await this.options.config()
    const proxy = await this.proxyFor(c)
    const launched = await (this.options.connect ?? connectBrowser)(
      proxy ? { ...c, proxyServer: proxy.url } : c,
    ).catch(async (error: unknown) => {
      await proxy?.close()
      throw error
    })
    const connection: BrowserConnection = proxy
      ? {
          mode: launched.mode,
          browser: launched.browser,
          newPage: () => launched.newPage(),
          close: () => launched.close().finally(() => proxy.close()),
        }
      : launched
    try {
      return { connection, requests: await this.guardRequests(c, connection) }
    } catch (error) {
      await connection.close().catch(() => {})
      throw new AppError(
        'UNAVAILABLE',
        `The browser's requests could not be put under the URL guard, so it is not used: ${shortReason(error)}`,
        { cause: error },
      )
    }
  }

  /**
   * A browser Bureau launches itself (bundled-chromium, edge-profile) gets the guard proxy: DevTools cannot
   * hold a worker before its first WebSocket (Playwright lets every worker run at once), the proxy refuses
   * the connection itself. The user's running browser (cdp) keeps its own network settings.
   */
  private async proxyFor(c: BrowserConfig): Promise<GuardProxy | undefined> {
    if (c.mode === 'cdp' || !this.options.guard) return undefined
    const guard = await this.options.guard()
    return startGuardProxy({
      guard,
      // Only the guard's refusals are news to the tab (a host that does not resolve is not).
      onRefused: (url, error) => {
        if (isAppError(error) && error.code === 'FORBIDDEN')
          this.options.unattributed({ kind: 'request', url, message: error.message })
      },
    })
  }

  /** The user's browser (cdp): only Bureau's tabs are guarded. A browser Bureau launched: all of it. */
  private async guardRequests(c: BrowserConfig, connection: BrowserConnection): Promise<RequestGuard> {
    const verdicts = await this.options.verdicts()
    if (connection.mode === 'cdp')
      return guardOwnedTabs({
        endpoint: c.cdpEndpoint ?? '',
        verdicts,
        onLost: () => void this.lose(connection),
      })
    return guardBrowserRequests(connection.browser, {
      verdicts,
      unattributed: this.options.unattributed,
      bypassServiceWorkers: connection.mode === 'edge-profile',
    })
  }

  /** The guard's connection broke: Bureau's tabs are closed (unguarded, they are not used) and the next call reconnects. */
  private async lose(connection: BrowserConnection): Promise<void> {
    this.options.logger?.warn('browser: the URL guard lost its DevTools connection; closing Bureau tabs')
    this.attached = undefined
    await this.options.closeGuardedPages()
    await connection.close().catch(() => {})
  }
}
