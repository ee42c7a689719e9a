import type { LookupAddress } from 'node:dns'
import type { IncomingMessage } from 'node:http'
import { Readable } from 'node:stream'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'

/** Resolves a host name to the addresses the caller may connect to (throws when one is refused). */
export type CheckedLookup = (hostname: string) => Promise<string[]>

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void

/**
 * A `lookup` for `http.request` that connects only to addresses the guard checked in this very lookup,
 * so a DNS answer cannot change between the check and the connection (DNS rebinding).
 */
function pinnedLookup(check: CheckedLookup) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback) => {
    check(hostname).then(
      (addresses) => {
        const entries = addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
        if (options.all) callback(null, entries)
        else callback(null, entries[0]?.address ?? '', entries[0]?.family ?? 4)
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), ''),
    )
  }
}

/** The body as bytes plus the content type fetch would add for it (form data, URLSearchParams, text...). */
async function encodeBody(body: RequestInit['body']): Promise<{ bytes?: Uint8Array; type?: string }> {
  if (body === undefined || body === null) return {}
  const request = new Request('http://body.invalid/', { method: 'POST', body })
  return {
    bytes: new Uint8Array(await request.arrayBuffer()),
    type: request.headers.get('content-type') ?? undefined,
  }
}

function decoded(response: IncomingMessage): Readable {
  switch (String(response.headers['content-encoding'] ?? '').toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return response.pipe(createGunzip())
    case 'deflate':
      return response.pipe(createInflate())
    case 'br':
      return response.pipe(createBrotliDecompress())
    default:
      return response
  }
}

/** One HTTP(S) request (no redirects followed) whose connection goes only to checked addresses. */
export async function pinnedFetch(url: URL, init: RequestInit, check: CheckedLookup): Promise<Response> {
  const http = url.protocol === 'https:' ? await import('node:https') : await import('node:http')
  const body = await encodeBody(init.body)
  const method = (init.method ?? 'GET').toUpperCase()
  const headers = Object.fromEntries(new Headers(init.headers).entries())
  if (body.type && !('content-type' in headers)) headers['content-type'] = body.type
  return new Promise<Response>((resolve, reject) => {
    const request = http.request(
      url,
      { method, headers, lookup: pinnedLookup(check) as never, signal: init.signal ?? undefined },
      (response) => {
        const status = response.statusCode ?? 502
        const responseHeaders = new Headers()
        for (const [name, value] of Object.entries(response.headers)) {
          for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value])
            responseHeaders.append(name, item)
        }
        const empty = method === 'HEAD' || status === 204 || status === 304 || (status >= 300 && status < 400)
        if (empty) response.resume()
        const stream = empty ? null : (Readable.toWeb(decoded(response)) as ReadableStream<Uint8Array>)
        resolve(
          new Response(stream, {
            status: Math.max(200, Math.min(599, status)),
            statusText: response.statusMessage,
            headers: responseHeaders,
          }),
        )
      },
    )
    request.on('error', reject)
    request.end(body.bytes)
  })
}
