import { execFile } from 'node:child_process'
import { access } from 'node:fs/promises'
import { join } from 'node:path'

export interface EspeakStatus {
  available: boolean
  /** The command that works (a name on PATH or a full path). */
  command?: string
  version?: string
  /** How to install it on this platform, when it is missing. */
  reason?: string
}

/** Where installers put espeak-ng when it is not on PATH. */
function candidates(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string[] {
  if (platform === 'win32') {
    const dirs = [env.ProgramFiles, env['ProgramFiles(x86)']].filter((d): d is string => Boolean(d))
    return ['espeak-ng', ...dirs.map((dir) => join(dir, 'eSpeak NG', 'espeak-ng.exe'))]
  }
  if (platform === 'darwin') return ['espeak-ng', '/opt/homebrew/bin/espeak-ng', '/usr/local/bin/espeak-ng']
  return ['espeak-ng']
}

function espeakInstallHint(platform: NodeJS.Platform): string {
  switch (platform) {
    case 'darwin':
      return 'espeak-ng is not installed. Install it with `brew install espeak-ng`, then reopen Bureau.'
    case 'win32':
      return 'espeak-ng is not installed. Install it from https://github.com/espeak-ng/espeak-ng/releases (the .msi), then reopen Bureau.'
    default:
      return 'espeak-ng is not installed. Install it with your package manager, e.g. `sudo apt install espeak-ng` (Debian, Ubuntu) or `sudo dnf install espeak-ng` (Fedora), then reopen Bureau.'
  }
}

function version(command: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(command, ['--version'], { timeout: 5_000, windowsHide: true }, (error, stdout) => {
      if (error) return resolve(undefined)
      resolve(/text-to-speech:\s*([^\s]+)/.exec(stdout)?.[1] ?? stdout.trim().split('\n')[0] ?? '')
    })
  })
}

/** Finds a working espeak-ng: `--version` must answer. */
export async function detectEspeak(
  options: { command?: string; platform?: NodeJS.Platform; env?: NodeJS.ProcessEnv } = {},
): Promise<EspeakStatus> {
  const platform = options.platform ?? process.platform
  const list = options.command ? [options.command] : candidates(platform, options.env ?? process.env)
  for (const command of list) {
    if (command.includes('/') || command.includes('\\')) {
      const exists = await access(command).then(
        () => true,
        () => false,
      )
      if (!exists) continue
    }
    const found = await version(command)
    if (found !== undefined) return { available: true, command, version: found }
  }
  return { available: false, reason: espeakInstallHint(platform) }
}
