import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'vitest'
import type { BrowserEnvironment } from '../../../../src/main/browser'
import {
  type DebuggableBrowser,
  startDebuggableBrowser,
} from '../../../../src/main/browser/bureauProfile/startDebuggableBrowser'
import { HEADLESS_FLAGS } from '../../../../src/main/browser/config/launchFlags'
import type { BrowserSettings } from '../../../../src/main/browser/types'
import {
  createToolSession,
  invoke,
  type ToolResult,
  type ToolSession,
  type UrlGuard,
} from '../../../../src/main/tools'
import { loadBuiltinToolsets } from '../../../../src/main/toolsHost'
import { createWorkspace, type Workspace } from '../../../../src/main/workspace'
import { findProgram } from '../../../support/requirements'

/** Chromium on this machine (suites that start it use describeNeeding(['chromium'])). */
export const CHROMIUM = findProgram('chromium') ?? '/usr/bin/chromium'
export type Mode = 'bundled-chromium' | 'cdp' | 'edge-profile'

/**
 * edge-profile launches the user's browser with a window (Bureau does not make it headless); this machine
 * has no display, so the "user's browser" is Chromium behind a script that adds the headless flags.
 */
async function headlessChromium(dir: string): Promise<string> {
  const script = join(dir, 'chromium-headless')
  await writeFile(script, `#!/bin/sh\nexec ${CHROMIUM} ${HEADLESS_FLAGS.join(' ')} "$@"\n`, { mode: 0o755 })
  return script
}

export interface Harness {
  mode: Mode
  session: ToolSession
  workspace: Workspace
  root: string
  cdp: DebuggableBrowser | null
  call(name: string, args?: Record<string, unknown>): Promise<ToolResult>
  ok<T = Record<string, unknown>>(name: string, args?: Record<string, unknown>): Promise<T>
  close(): Promise<void>
}

/** Chromium with remote debugging on port 0 (read back from DevToolsActivePort), as cdp mode expects. */
export function startCdpChromium(userDataDir: string): Promise<DebuggableBrowser> {
  return startDebuggableBrowser({ executablePath: CHROMIUM, userDataDir, extraArgs: HEADLESS_FLAGS })
}

/**
 * One tool session (so one browser) per mode and test file. cdp mode attaches to `settings.cdpEndpoint`
 * when given (a browser the test file shares), else starts its own Chromium. `urlGuard` is the session's
 * host policy (used when `allowLocalNetwork` is false).
 */
export async function startHarness(
  mode: Mode,
  searchUrl: string,
  settings: Partial<BrowserSettings> = {},
  options: { urlGuard?: UrlGuard } = {},
): Promise<Harness> {
  const root = await mkdtemp(join(tmpdir(), 'bureau-browser-'))
  const cdp =
    mode === 'cdp' && !settings.cdpEndpoint ? await startCdpChromium(join(root, 'cdp-profile')) : null
  const edgeExecutable = mode === 'edge-profile' ? await headlessChromium(root) : null
  const env: BrowserEnvironment = {
    dataDir: join(root, 'data'),
    settings: () => ({
      mode,
      executablePath: mode === 'cdp' ? null : mode === 'edge-profile' ? edgeExecutable : CHROMIUM,
      profileDir: mode === 'edge-profile' ? join(root, 'edge-profile') : null,
      allowLocalNetwork: true,
      searchUrl,
      ...settings,
      cdpEndpoint: settings.cdpEndpoint ?? cdp?.endpoint ?? null,
    }),
  }
  const workspace = createWorkspace({ root: join(root, 'workspace') })
  const toolsets = (await loadBuiltinToolsets({ browser: env })).filter((t) => t.name === 'web')
  const session = createToolSession({ toolsets, workspace, urlGuard: options.urlGuard })
  const call = (name: string, args: Record<string, unknown> = {}) => invoke(session, name, args)
  return {
    mode,
    session,
    workspace,
    root,
    cdp,
    call,
    async ok<T>(name: string, args: Record<string, unknown> = {}) {
      const result = await call(name, args)
      if (!result.ok) expect.fail(`${name} failed: ${result.error}`)
      return result.value as T
    },
    async close() {
      await session.dispose()
      await workspace.close()
      await cdp?.stop()
      await rm(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 })
    },
  }
}

export interface PageResult {
  url: string
  title: string
  page: number
  pages: number
  content: string
}

export interface Marker {
  kind: string
  id: string
  text?: string
  label?: string
  href?: string
  value?: unknown
  options?: string[]
  placeholder?: string
  state?: Record<string, boolean>
}

/** The interactive markers of a page text, parsed. */
export function markers(content: string): Marker[] {
  return [...content.matchAll(/<<<INTERACTIVE::(\w+)::(\{.*?\})>>>/g)].map((m) => ({
    kind: m[1] as string,
    ...(JSON.parse(m[2] as string) as Omit<Marker, 'kind'>),
  }))
}

export function find(content: string, predicate: (m: Marker) => boolean): Marker {
  const found = markers(content).find(predicate)
  if (!found) expect.fail(`no marker matches in:\n${content}`)
  return found
}
