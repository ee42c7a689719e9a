import { type Command, CommanderError, Option } from 'commander'
import type { BrowserOverrides } from '../browser'
import { EXIT_USAGE } from './program'

/** The browser flags `serve`, `tool` and `chat` share (one place, so they mean the same everywhere). */
export interface BrowserCliOptions {
  browserCdp?: string
  browserExecutable?: string
  allowLocalNetwork?: boolean
}

function parseEndpoint(value: string): string {
  let url: URL | undefined
  try {
    url = new URL(value)
  } catch {
    url = undefined
  }
  if (!url || !/^(https?|wss?):$/.test(url.protocol))
    throw new CommanderError(
      EXIT_USAGE,
      'bureau.badEndpoint',
      `error: --browser-cdp needs an http(s) or ws(s) DevTools endpoint, e.g. http://127.0.0.1:9222 (got "${value}")`,
    )
  return value
}

export function addBrowserOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        '--browser-cdp <url>',
        'drive the browser already running at this DevTools endpoint (cdp mode)',
      ).argParser(parseEndpoint),
    )
    .addOption(
      new Option(
        '--browser-executable <path>',
        'start this Chromium/Chrome/Edge executable (bundled-chromium mode)',
      ),
    )
    .addOption(
      new Option('--allow-local-network', 'let the web toolset open loopback and private-network addresses'),
    )
}

/** The flags as overrides of the browser settings; undefined when none was given. */
export function browserOverrides(options: BrowserCliOptions): BrowserOverrides | undefined {
  const overrides: BrowserOverrides = {
    ...(options.browserCdp ? { cdpEndpoint: options.browserCdp } : {}),
    ...(options.browserExecutable ? { executablePath: options.browserExecutable } : {}),
    ...(options.allowLocalNetwork ? { allowLocalNetwork: true } : {}),
  }
  return Object.keys(overrides).length > 0 ? overrides : undefined
}
