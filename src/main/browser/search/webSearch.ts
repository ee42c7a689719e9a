import { AppError } from '../../../shared/errors'
import { runInPage } from '../inpage/pageScript'
import type { BrowserSession } from '../session/browserSession'
import { frameUntrusted } from '../snapshot/frameContent'
import { extractSearchResults, type SearchHit } from './searchResultsScript'

export function searchUrl(template: string, query: string): string {
  if (!template.includes('{query}'))
    throw new AppError('VALIDATION_FAILED', 'The search engine URL needs a {query} placeholder.')
  return template.replace('{query}', encodeURIComponent(query))
}

export function formatHits(hits: readonly SearchHit[]): string {
  return hits
    .map(
      (hit, i) =>
        `${i + 1}. [${hit.title.replace(/[[\]]/g, '')}](${hit.url})${hit.snippet ? `\n   ${hit.snippet}` : ''}`,
    )
    .join('\n')
}

/** Runs the query on the configured engine in a tab of its own (closed after) and lists the results. */
export async function webSearch(session: BrowserSession, query: string, max: number) {
  const config = await session.config()
  const url = searchUrl(config.searchUrl, query)
  const previous = session.activeIndex()
  const tab = await session.openTab()
  try {
    await session.navigate(tab, url)
    await session.read(tab) // lets the cookie banner be handled before results are read
    const hits = await runInPage(tab.page, extractSearchResults, max)
    const body = hits.length > 0 ? formatHits(hits) : 'No results.'
    return {
      query,
      engine: new URL(url).host,
      results: hits,
      content: frameUntrusted(url, body, [`Search results for ${JSON.stringify(query)}`]),
    }
  } finally {
    await tab.page.close().catch(() => {})
    if (previous >= 0 && previous < session.tabs().length) await session.switchTab(previous).catch(() => {})
  }
}
