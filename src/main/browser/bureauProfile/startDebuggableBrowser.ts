import { type ChildProcess, spawn } from 'node:child_process'
import { mkdir } from 'node:fs/promises'
import { setTimeout as sleep } from 'node:timers/promises'
import { AppError } from '../../../shared/errors'
import { QUIET_FLAGS } from '../config/launchFlags'
import {
  type DevToolsEndpoint,
  endpointAnswers,
  readActivePort,
  removeActivePort,
} from './devToolsActivePort'

export interface StartDebuggableOptions {
  executablePath: string
  userDataDir: string
  /** 0 (default) lets the browser pick a free port; it is read back from DevToolsActivePort. */
  port?: number
  extraArgs?: readonly string[]
  /** Keep running after Bureau exits (the user's "Start Edge for Bureau"); tests keep it attached. */
  detached?: boolean
  timeoutMs?: number
}

export interface DebuggableBrowser extends DevToolsEndpoint {
  /** Null when an already running browser on the same profile was reused. */
  process: ChildProcess | null
  reused: boolean
  stop(): Promise<void>
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
  await exited
  clearTimeout(timer)
}

/**
 * Starts Edge/Chrome/Chromium with remote debugging on a profile folder Bureau owns (Chrome 136+ and
 * current Edge ignore remote debugging on the default profile) and waits for its DevTools endpoint.
 * A browser already running on that profile is reused.
 */
export async function startDebuggableBrowser(options: StartDebuggableOptions): Promise<DebuggableBrowser> {
  await mkdir(options.userDataDir, { recursive: true })
  const running = await readActivePort(options.userDataDir)
  if (running && (await endpointAnswers(running.endpoint))) {
    return { ...running, process: null, reused: true, stop: async () => {} }
  }
  await removeActivePort(options.userDataDir)
  const child = spawn(
    options.executablePath,
    [
      `--remote-debugging-port=${options.port ?? 0}`,
      `--user-data-dir=${options.userDataDir}`,
      ...QUIET_FLAGS,
      ...(options.extraArgs ?? []),
      'about:blank',
    ],
    { detached: options.detached ?? false, stdio: 'ignore' },
  )
  let failure: string | null = null
  child.once('error', (error) => {
    failure = error.message
  })
  child.once('exit', (code) => {
    failure ??= `the browser exited (code ${code})`
  })
  if (options.detached) child.unref()
  const deadline = Date.now() + (options.timeoutMs ?? 20_000)
  while (Date.now() < deadline) {
    if (failure) break
    const found = await readActivePort(options.userDataDir)
    if (found) return { ...found, process: child, reused: false, stop: () => stopProcess(child) }
    await sleep(100)
  }
  await stopProcess(child).catch(() => {})
  throw new AppError(
    'UNAVAILABLE',
    `The browser did not open its DevTools port${failure ? `: ${failure}` : ' in time'}. Check the browser executable in Settings.`,
  )
}
