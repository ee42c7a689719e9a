import { type ChildProcess, spawn } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const cliPath = fileURLToPath(new URL('../../bin/bureau.js', import.meta.url))

export interface BureauServer {
  url: string
  openUrl: string
  token: string
  dataDir: string
  workspace: string
  /** Forgets the last open conversation, so the next page load starts an empty chat. */
  freshChat(): Promise<void>
  stop(): Promise<void>
}

export interface StartOptions {
  /**
   * Start as a first run: the first-run guide tests the provider on the first page load (a real
   * request to the model). Default false: the data folder says a provider worked before, so the
   * specs' scripted turns are not taken by that connection test.
   */
  firstRun?: boolean
  /** Settings sections the data folder starts with (merged over what `firstRun` decides). */
  settings?: Record<string, unknown>
  /**
   * Index the workspace in the background, as the app does. Default false (`--no-index`): a spec that does
   * not test knowledge search spares the host opening the index, which also holds up its stop by seconds.
   */
  index?: boolean
}

/** Starts the built `bureau serve` on a free port with fresh data and workspace folders. */
export async function startBureau(
  extraArgs: string[] = [],
  env: NodeJS.ProcessEnv = {},
  options: StartOptions = {},
): Promise<BureauServer> {
  const base = await mkdtemp(join(tmpdir(), 'bureau-e2e-'))
  const dataDir = join(base, 'data')
  const workspace = join(base, 'workspace')
  if (!options.firstRun || options.settings) {
    await mkdir(dataDir, { recursive: true })
    const ui = options.firstRun ? {} : { ui: { providerWorked: true } }
    await writeFile(
      join(dataDir, 'settings.json'),
      JSON.stringify({ schemaVersion: 1, ...ui, ...options.settings }),
    )
  }
  const token = `e2e-${Math.random().toString(36).slice(2)}`
  const child: ChildProcess = spawn(
    process.execPath,
    [
      cliPath,
      'serve',
      '--port',
      '0',
      '--token',
      token,
      '--data-dir',
      dataDir,
      '--workspace',
      workspace,
      ...(options.index ? [] : ['--no-index']),
      ...extraArgs,
    ],
    // The conversion worker's code cache in the server's own folder, not the home folder.
    {
      env: { ...process.env, BUREAU_CODE_CACHE: join(base, 'code-cache'), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let stderr = ''
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString()
  })
  const openUrl = await new Promise<string>((resolve, reject) => {
    let stdout = ''
    child.stdout?.on('data', (d: Buffer) => {
      stdout += d.toString()
      const match = stdout.match(/running at (http:\/\/\S+)/)
      if (match?.[1]) resolve(match[1])
    })
    child.once('exit', (code) => reject(new Error(`bureau serve exited with ${code}: ${stderr}`)))
  })
  const url = new URL(openUrl).origin
  return {
    url,
    openUrl,
    token,
    dataDir,
    workspace,
    async freshChat() {
      const response = await fetch(`${url}/ipc/settings.update`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ ui: { lastConversationId: null } }),
      })
      if (!response.ok) throw new Error(`settings.update failed: ${response.status} ${await response.text()}`)
    },
    async stop() {
      if (child.exitCode === null) {
        await new Promise<void>((resolve) => {
          child.once('exit', () => resolve())
          child.kill('SIGTERM')
        })
      }
      // A browser the test started on the data folder may still be flushing its profile: rm retries.
      await rm(base, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
    },
  }
}
