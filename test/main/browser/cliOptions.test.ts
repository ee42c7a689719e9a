import { Command } from 'commander'
import { describe, expect, it } from 'vitest'
import { buildCli } from '../../../src/main/cli'
import { addBrowserOptions, browserOverrides } from '../../../src/main/cli/browserOptions'
import { describeNeeding } from '../../support/requirements'
import { CHROMIUM } from './support/harness'

describeNeeding(['chromium'], 'browser flags with a real Chromium', () => {
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

  describe('bureau tool with the browser flags', () => {
    it('drives Chromium from --browser-executable and opens a loopback page with --allow-local-network', async () => {
      const { mkdtemp, rm } = await import('node:fs/promises')
      const { tmpdir } = await import('node:os')
      const { join } = await import('node:path')
      const { PassThrough } = await import('node:stream')
      const { textSink } = await import('../../support/textSink')
      const { runTool } = await import('../../../src/main/cli/tool/runTool')
      const { startFixtureSites } = await import('./support/fixturePages')
      const sites = await startFixtureSites()
      const root = await mkdtemp(join(tmpdir(), 'bureau-cli-browser-'))
      const sink = textSink()
      const stdout = sink.stream
      const options = { dataDir: join(root, 'data'), workspace: join(root, 'ws') }
      try {
        await runTool(
          ['web', 'navigate', '--url', sites.site.url('/form.html')],
          { ...options, browserExecutable: CHROMIUM, allowLocalNetwork: true },
          { stdin: new PassThrough(), stdout },
        )
        expect(JSON.parse(sink.text()).content).toContain('# Sign up')
        // Without the flag, loopback is refused before any browser starts.
        await expect(
          runTool(
            ['web', 'navigate', '--url', sites.site.url('/form.html')],
            { ...options, browserExecutable: CHROMIUM },
            { stdin: new PassThrough(), stdout },
          ),
        ).rejects.toThrow(/Local and private network targets are blocked/)
      } finally {
        await sites.close()
        await rm(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 })
      }
    }, 60_000)
  })
})
