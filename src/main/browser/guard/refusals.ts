/** A request of a tab the URL guard stopped before the browser sent it. */
export interface Refusal {
  /** navigation: the tab's own page; popup: a tab the page opened (closed again); request: a frame or subresource. */
  kind: 'navigation' | 'popup' | 'request'
  url: string
  /** The guard's message (names the rule). */
  message: string
}

export type RefusalSink = (refusal: Refusal) => void

const MAX_ORIGINS_SHOWN = 3

function originOf(url: string): string {
  try {
    return new URL(url).origin
  } catch {
    return url.slice(0, 80)
  }
}

/** Header lines for the refusals of a page that is still shown (its own navigation was allowed). */
export function refusalNotes(refusals: readonly Refusal[]): string[] {
  const notes = [
    ...new Set(
      refusals
        .filter((r) => r.kind !== 'request')
        .map(
          (r) => `Blocked: ${r.message}${r.kind === 'popup' ? ' The tab the page opened was closed.' : ''}`,
        ),
    ),
  ]
  const requests = refusals.filter((r) => r.kind === 'request')
  if (requests.length > 0) {
    const origins = [...new Set(requests.map((r) => originOf(r.url)))]
    const shown = origins.slice(0, MAX_ORIGINS_SHOWN).join(', ')
    const more = origins.length > MAX_ORIGINS_SHOWN ? ` and ${origins.length - MAX_ORIGINS_SHOWN} more` : ''
    notes.push(
      `Blocked ${requests.length} request(s) of this page (frames, images, scripts, fetches, WebSockets) to ${shown}${more}: ${requests[0]?.message}`,
    )
  }
  return notes
}
