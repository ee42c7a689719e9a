import type { Browser, Page } from 'playwright-core'
import type { z } from 'zod'
import type { BrowserSettings as BrowserSettingsSchema } from '../../shared/settings'
import type { Converter } from '../convert'
import type { Logger } from '../platform'

export type BrowserSettings = z.infer<typeof BrowserSettingsSchema>
export type BrowserMode = BrowserSettings['mode']

/** Command-line flags (`--browser-cdp`, `--browser-executable`, `--allow-local-network`) that win over settings. */
export interface BrowserOverrides {
  cdpEndpoint?: string
  executablePath?: string
  allowLocalNetwork?: boolean
}

/** What the browser service needs from the host; passed in by the composition root, never global. */
export interface BrowserEnvironment {
  /** The data folder: the Bureau browser profile lives under it. */
  dataDir: string
  /** The `browser` settings section as it is now (read when a session first uses the browser). */
  settings(): BrowserSettings | Promise<BrowserSettings>
  overrides?: BrowserOverrides
  /** Converts PDF responses to Markdown (default: the converter service, cached under the data folder, no OCR). */
  converter?: () => Converter | Promise<Converter>
  logger?: Logger
  /** Replaces the platform (tests). */
  platform?: NodeJS.Platform
  env?: NodeJS.ProcessEnv
}

/** Settings and flags merged: what one connection uses. */
export interface BrowserConfig {
  mode: BrowserMode
  executablePath: string | null
  profileDir: string | null
  cdpEndpoint: string | null
  allowLocalNetwork: boolean
  searchUrl: string
  /** Folder of the Bureau-owned profile ("Start Edge for Bureau", and the edge-profile fallback). */
  bureauProfileDir: string
  headless: boolean
  /** A browser Bureau launches sends every connection through this proxy (the URL guard's backstop). */
  proxyServer?: string
}

/** A live browser the toolset drives: pages it opens, and how to let go of it. */
export interface BrowserConnection {
  readonly mode: BrowserMode
  /** The browser itself: the URL guard watches its requests through a browser-level DevTools session. */
  readonly browser: Browser
  newPage(): Promise<Page>
  /** Closes what Bureau started; a browser reached over CDP is left running (only our tabs close). */
  close(): Promise<void>
}
