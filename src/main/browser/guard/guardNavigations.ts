import type { Page, Route } from 'playwright-core'
import type { UrlGuard } from '../../tools'

/**
 * Checks every document request of a page Bureau drives (links, redirects, form posts, scripts
 * setting location) and aborts refused ones. Subresources pass untouched to keep pages fast.
 */
export async function guardNavigations(page: Page, guard: UrlGuard, onRefused: (message: string) => void) {
  await page.route('**/*', async (route: Route) => {
    const request = route.request()
    if (!request.isNavigationRequest()) return route.fallback()
    try {
      await guard.check(request.url())
      return route.fallback()
    } catch (error) {
      onRefused(error instanceof Error ? error.message : String(error))
      return route.abort('blockedbyclient')
    }
  })
}
