import { Command } from 'commander'
import { describe, expect, it } from 'vitest'
import { buildCli } from '../../../src/main/cli'
import { addBrowserOptions, browserOverrides } from '../../../src/main/cli/browserOptions'

describe('browser flags', () => {
  it('are on serve, tool and chat', () => {
    const program = buildCli()
    for (const name of ['serve', 'tool', 'chat']) {
      const command = program.commands.find((c) => c.name() === name)
      const flags = command?.options.map((o) => o.long)
      expect(flags, name).toEqual(
        expect.arrayContaining(['--browser-cdp', '--browser-executable', '--allow-local-network']),
      )
    }
  })

  it('become setting overrides', () => {
    const command = addBrowserOptions(new Command().exitOverride())
    command.parse(['--browser-cdp', 'http://127.0.0.1:9222', '--allow-local-network'], { from: 'user' })
    expect(browserOverrides(command.opts())).toEqual({
      cdpEndpoint: 'http://127.0.0.1:9222',
      allowLocalNetwork: true,
    })
    expect(browserOverrides({})).toBeUndefined()
  })

  it('refuse an endpoint that is not http(s) or ws(s)', () => {
    const command = addBrowserOptions(new Command().exitOverride().configureOutput({ writeErr: () => {} }))
    expect(() => command.parse(['--browser-cdp', 'file:///tmp/x'], { from: 'user' })).toThrow(
      /DevTools endpoint/,
    )
  })
})
