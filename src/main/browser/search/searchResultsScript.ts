export interface SearchHit {
  title: string
  url: string
  snippet: string
}

/**
 * Runs in the results page (self-contained). Reads DuckDuckGo's HTML results (`.result__a`,
 * `.result__snippet`, redirect links carrying `uddg=`), else falls back to heading links.
 */
export function extractSearchResults(max: number): SearchHit[] {
  const squash = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim()
  const target = (href: string): string => {
    try {
      const url = new URL(href, location.href)
      const wrapped = url.searchParams.get('uddg')
      return wrapped ? decodeURIComponent(wrapped) : url.href
    } catch {
      return href
    }
  }
  const hits: SearchHit[] = []
  const seen = new Set<string>()
  const add = (link: HTMLAnchorElement | null, snippet: string) => {
    if (!link?.getAttribute('href')) return
    const url = target(link.getAttribute('href') ?? '')
    if (!/^https?:/.test(url) || seen.has(url) || hits.length >= max) return
    seen.add(url)
    hits.push({ title: squash(link.textContent) || url, url, snippet })
  }
  for (const result of Array.from(document.querySelectorAll('.result, .web-result'))) {
    if (result.classList.contains('result--ad')) continue
    add(
      result.querySelector<HTMLAnchorElement>('a.result__a'),
      squash(result.querySelector('.result__snippet')?.textContent),
    )
  }
  if (hits.length === 0) {
    for (const link of Array.from(document.querySelectorAll<HTMLAnchorElement>('h2 a[href], h3 a[href]'))) {
      const container = link.closest('li, article, div')
      add(link, squash(container?.querySelector('p')?.textContent).slice(0, 300))
    }
  }
  return hits
}
