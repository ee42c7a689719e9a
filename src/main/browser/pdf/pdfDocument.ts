import { basename } from 'node:path'
import type { APIResponse, BrowserContext } from 'playwright-core'
import { AppError } from '../../../shared/errors'
import type { Converter } from '../../convert'
import type { UrlGuard } from '../../tools'

export const MAX_FETCH_BYTES = 100 * 1024 * 1024

export function isPdf(bytes: Uint8Array, contentType: string | undefined): boolean {
  if (contentType?.toLowerCase().includes('application/pdf')) return true
  return bytes.length >= 5 && String.fromCharCode(...bytes.subarray(0, 5)) === '%PDF-'
}

/**
 * GET through the browser context (its cookies come along), following redirects one hop at a
 * time so every hop passes the URL guard.
 */
export async function guardedGet(
  context: BrowserContext,
  guard: UrlGuard,
  url: string,
): Promise<{ url: string; response: APIResponse }> {
  let current = url
  for (let hop = 0; hop <= 5; hop++) {
    await guard.check(current)
    const response = await context.request.get(current, {
      maxRedirects: 0,
      failOnStatusCode: false,
      timeout: 60_000,
    })
    const location = response.headers().location
    if (response.status() >= 300 && response.status() < 400 && location) {
      current = new URL(location, current).href
      await response.dispose()
      continue
    }
    if (!response.ok()) throw new AppError('UNAVAILABLE', `${current} answered HTTP ${response.status()}.`)
    const length = Number(response.headers()['content-length'] ?? 0)
    if (length > MAX_FETCH_BYTES) throw new AppError('TOO_LARGE', `${current} is larger than 100 MB.`)
    return { url: current, response }
  }
  throw new AppError('UNAVAILABLE', `Too many redirects from ${url}.`)
}

export function fileNameOf(url: string, fallback: string): string {
  try {
    const name = decodeURIComponent(basename(new URL(url).pathname))
    return name && name !== '/' ? name : fallback
  } catch {
    return fallback
  }
}

/** A PDF response as Markdown, through the converter service. */
export async function pdfToMarkdown(
  converter: Converter,
  url: string,
  bytes: Uint8Array,
): Promise<{ title: string; markdown: string }> {
  const name = fileNameOf(url, 'document.pdf')
  const result = await converter.convert({
    name: name.toLowerCase().endsWith('.pdf') ? name : `${name}.pdf`,
    bytes,
  })
  return { title: result.title ?? name, markdown: result.markdown }
}
