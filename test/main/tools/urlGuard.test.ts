import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUrlGuard } from '../../../src/main/tools'

// Fake DNS: names a test controls, so nothing leaves the machine.
const dns: Record<string, string[]> = {
  'public.example': ['93.184.216.34'],
  'public6.example': ['2606:2800:220:1:248:1893:25c8:1946'],
  'rebind.example': ['93.184.216.34', '127.0.0.1'],
  'internal.example': ['10.0.0.5'],
  'metadata.example': ['169.254.169.254'],
  'ula.example': ['fd00::1234'],
  'mapped.example': ['::ffff:192.168.1.1'],
  'intranet.corp.example': ['10.1.2.3'],
}
const lookup = async (host: string) => {
  const addresses = dns[host]
  if (!addresses) throw new Error('ENOTFOUND')
  return addresses
}
const guard = createUrlGuard({ lookup })

async function refusal(url: string, g = guard): Promise<string> {
  try {
    await g.check(url)
  } catch (error) {
    return (error as Error).message
  }
  throw new Error(`${url} was allowed`)
}

describe('URL guard', () => {
  it.each([
    ['http://127.0.0.1/', 'loopback'],
    ['http://127.1/', 'loopback'],
    ['http://2130706433/', 'loopback'],
    ['http://0x7f000001/', 'loopback'],
    ['http://0177.0.0.1/', 'loopback'],
    ['http://127.255.255.254:8080/x', 'loopback'],
    ['http://localhost/', 'loopback'],
    ['http://LOCALHOST./', 'loopback'],
    ['http://app.localhost/', 'loopback'],
    ['http://[::1]/', 'loopback'],
    ['http://[0:0:0:0:0:0:0:1]/', 'loopback'],
    ['http://0.0.0.0/', 'unspecified'],
    ['http://[::]/', 'unspecified'],
    ['http://10.0.0.1/', 'private'],
    ['http://172.16.5.4/', 'private'],
    ['http://172.31.255.255/', 'private'],
    ['http://192.168.0.1/', 'private'],
    ['http://169.254.169.254/latest/meta-data/', 'link-local'],
    ['http://100.64.0.1/', 'carrier-grade NAT'],
    ['http://[fe80::1]/', 'link-local'],
    ['http://[fc00::1]/', 'unique-local'],
    ['http://[fd12:3456::1]/', 'unique-local'],
    ['http://[::ffff:127.0.0.1]/', 'IPv4-mapped'],
    ['http://[::ffff:8.8.8.8]/', 'IPv4-mapped'],
    ['http://[::127.0.0.1]/', 'IPv4-compatible'],
    ['http://[64:ff9b::a00:1]/', 'special-purpose'],
    ['http://224.0.0.1/', 'multicast'],
    ['http://255.255.255.255/', 'broadcast'],
    ['http://internal.example/', 'resolves to 10.0.0.5'],
    ['http://metadata.example/', 'resolves to 169.254.169.254'],
    ['http://ula.example/', 'resolves to fd00::1234'],
    ['http://mapped.example/', 'resolves to ::ffff:192.168.1.1'],
    ['http://rebind.example/', 'resolves to 127.0.0.1'],
    ['file:///etc/passwd', 'not file:'],
    ['ftp://public.example/', 'not ftp:'],
    ['gopher://public.example/', 'not gopher:'],
    ['javascript:alert(1)', 'not javascript:'],
    ['data:text/plain,hi', 'not data:'],
  ])('refuses %s (%s)', async (url, reason) => {
    const message = await refusal(url)
    expect(message).toContain(reason)
    expect(message).toContain('blocked unless the user allows them')
  })

  it.each([
    'https://public.example/path?q=1',
    'http://public6.example/',
    'http://93.184.216.34/',
    'http://[2606:4700::1111]/',
  ])('allows public %s', async (url) => {
    expect((await guard.check(url)).href).toBe(new URL(url).href)
  })

  it('invalid URLs and unknown hosts get clear errors', async () => {
    expect(await refusal('not a url')).toContain('Not a valid URL')
    expect(await refusal('http://nowhere.example/')).toContain('Could not resolve the host nowhere.example')
  })

  it('the user can allow hosts, address ranges, private networks and schemes', async () => {
    const byName = createUrlGuard({ lookup, allowHosts: ['*.corp.example', 'localhost'] })
    await expect(byName.check('http://intranet.corp.example/')).resolves.toBeInstanceOf(URL)
    await expect(byName.check('http://localhost:3000/')).resolves.toBeInstanceOf(URL)
    expect(await refusal('http://internal.example/', byName)).toContain('private')

    const byRange = createUrlGuard({ lookup, allowHosts: ['10.0.0.0/8', '::1'] })
    await expect(byRange.check('http://internal.example/')).resolves.toBeInstanceOf(URL)
    await expect(byRange.check('http://[::1]/')).resolves.toBeInstanceOf(URL)
    expect(await refusal('http://192.168.1.1/', byRange)).toContain('private')

    const everything = createUrlGuard({ lookup, allowPrivate: true, allowSchemes: ['file'] })
    await expect(everything.check('http://127.0.0.1/')).resolves.toBeInstanceOf(URL)
    await expect(everything.check('file:///tmp/x')).resolves.toBeInstanceOf(URL)
  })

  it('uses real DNS by default: localhost-like names resolving to loopback are refused', async () => {
    // /etc/hosts answers this without the network.
    const real = createUrlGuard()
    expect(await refusal('http://localhost/', real)).toContain('loopback')
    const hostsLookup = createUrlGuard({ lookup: async () => ['127.0.0.1'] })
    expect(await refusal('http://looks-public.example/', hostsLookup)).toContain('resolves to 127.0.0.1')
  })
})

describe('URL guard fetch', () => {
  let server: Server
  let port = 0
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/redirect-local') {
        res.writeHead(302, { location: `http://localhost:${port}/secret` })
        res.end()
      } else if (req.url === '/redirect-ok') {
        res.writeHead(301, { location: '/final' })
        res.end()
      } else if (req.url === '/gzip') {
        res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'text/plain' })
        res.end(gzipSync('compressed hello'))
      } else if (req.url === '/echo') {
        let body = ''
        req.setEncoding('utf8').on('data', (chunk: string) => {
          body += chunk
        })
        req.on('end', () => res.end(`${req.method} ${req.headers['content-type']} ${body}`))
      } else if (req.url === '/loop') {
        res.writeHead(302, { location: '/loop' })
        res.end()
      } else {
        res.end(`hello from ${req.url}`)
      }
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('refuses a loopback server unless allowed', async () => {
    await expect(createUrlGuard().fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow('loopback')
  })

  it('fetches an allowed address and follows allowed redirects', async () => {
    const allowed = createUrlGuard({ allowHosts: ['127.0.0.1'] })
    const response = await allowed.fetch(`http://127.0.0.1:${port}/redirect-ok`)
    expect(await response.text()).toBe('hello from /final')
  })

  it('checks every redirect hop: a redirect to a refused host is refused', async () => {
    const allowed = createUrlGuard({ allowHosts: ['127.0.0.1'] })
    await expect(allowed.fetch(`http://127.0.0.1:${port}/redirect-local`)).rejects.toThrow(
      'localhost is a loopback address',
    )
  })

  it('stops redirect loops', async () => {
    const allowed = createUrlGuard({ allowHosts: ['127.0.0.1'], maxRedirects: 3 })
    await expect(allowed.fetch(`http://127.0.0.1:${port}/loop`)).rejects.toThrow('Too many redirects')
  })

  it('pins the connection to the checked answer: a DNS rebind between check and connect is refused', async () => {
    let calls = 0
    const rebinding = createUrlGuard({
      lookup: async () => (calls++ === 0 ? ['93.184.216.34'] : ['127.0.0.1']),
    })
    await expect(rebinding.fetch(`http://rebind.test:${port}/`)).rejects.toThrow(
      'rebind.test resolves to 127.0.0.1',
    )
    expect(calls).toBe(2)
  })

  it('connects by name to an allowed host through the checked lookup', async () => {
    const allowed = createUrlGuard({ allowHosts: ['svc.test'], lookup: async () => ['127.0.0.1'] })
    const response = await allowed.fetch(`http://svc.test:${port}/named`)
    expect(response.status).toBe(200)
    expect(await response.text()).toBe('hello from /named')
  })

  it('decodes compressed bodies and sends request bodies and headers like fetch', async () => {
    const allowed = createUrlGuard({ allowHosts: ['127.0.0.1'] })
    expect(await (await allowed.fetch(`http://127.0.0.1:${port}/gzip`)).text()).toBe('compressed hello')
    const posted = await allowed.fetch(`http://127.0.0.1:${port}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ a: 1 }),
    })
    expect(await posted.text()).toBe('POST application/json {"a":1}')
    const form = await allowed.fetch(`http://127.0.0.1:${port}/echo`, {
      method: 'POST',
      body: new URLSearchParams({ q: 'x y' }),
    })
    expect(await form.text()).toBe('POST application/x-www-form-urlencoded;charset=UTF-8 q=x+y')
  })

  it('an abort signal cancels the request', async () => {
    const allowed = createUrlGuard({ allowHosts: ['127.0.0.1'] })
    await expect(
      allowed.fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.abort() }),
    ).rejects.toThrow()
  })
})
