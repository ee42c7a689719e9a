/** Unwraps search-engine click-tracking links so the Markdown names the real target. */
export function unwrapRedirect(href: string): string {
  // Parsing a URL costs microseconds and a page holds thousands of links; only these can be trackers.
  if (!/\/(ck\/a|url)([?#]|$)/.test(href)) return href
  let url: URL
  try {
    url = new URL(href)
  } catch {
    return href
  }
  const host = url.hostname.replace(/^www\./, '')
  if (host.endsWith('bing.com') && url.pathname === '/ck/a') {
    const encoded = url.searchParams.get('u')
    if (encoded?.startsWith('a1')) {
      const target = Buffer.from(encoded.slice(2).replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString(
        'utf8',
      )
      if (/^https?:\/\//.test(target)) return target
    }
    return ''
  }
  if (/(^|\.)google\.[a-z.]+$/.test(host) && url.pathname === '/url') {
    const target = url.searchParams.get('q') ?? url.searchParams.get('url')
    if (target && /^https?:\/\//.test(target)) return target
  }
  return href
}
