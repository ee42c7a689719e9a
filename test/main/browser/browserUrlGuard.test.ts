import { describe, expect, it } from 'vitest'
import { createBrowserUrlGuard } from '../../../src/main/browser/guard/browserUrlGuard'
import { createUrlGuard } from '../../../src/main/tools'

const lookup = async (host: string) => (host === 'intranet.example' ? ['10.1.2.3'] : ['93.184.216.34'])

describe('browser URL guard', () => {
  const guard = createBrowserUrlGuard({
    base: createUrlGuard({ lookup }),
    allowLocalNetwork: false,
    createUrlGuard,
  })

  it.each([
    ['file:///etc/passwd', 'file: URLs are not allowed'],
    ['javascript:alert(1)', 'javascript: URLs are not allowed'],
    ['data:text/html,<b>x</b>', 'data: URLs are not allowed'],
    ['chrome://settings', 'browser-internal pages'],
    ['edge://flags', 'browser-internal pages'],
    ['about:blank', 'browser-internal pages'],
    ['view-source:https://example.com', 'browser-internal pages'],
    ['http://127.0.0.1:8080/', 'Local and private network targets are blocked'],
    ['http://intranet.example/', 'resolves to 10.1.2.3'],
  ])('refuses %s', async (url, reason) => {
    await expect(guard.check(url)).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringContaining(reason),
    })
  })

  it('lets public http(s) pages through', async () => {
    expect((await guard.check('https://example.com/a?b=1')).href).toBe('https://example.com/a?b=1')
  })

  it('allows loopback and private addresses when the user allowed local network', async () => {
    const open = createBrowserUrlGuard({
      base: createUrlGuard({ lookup }),
      allowLocalNetwork: true,
      createUrlGuard,
    })
    expect((await open.check('http://127.0.0.1:8080/x')).port).toBe('8080')
    await expect(open.check('file:///etc/passwd')).rejects.toMatchObject({ code: 'FORBIDDEN' })
  })
})
