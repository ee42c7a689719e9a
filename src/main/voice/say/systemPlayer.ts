import { spawn } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AppError } from '../../../shared/errors'

interface PlayerCommand {
  command: string
  args(file: string): string[]
}

function players(platform: NodeJS.Platform): PlayerCommand[] {
  if (platform === 'darwin') return [{ command: 'afplay', args: (f) => [f] }]
  if (platform === 'win32')
    return [
      {
        command: 'powershell',
        args: (f) => [
          '-NoProfile',
          '-Command',
          `(New-Object Media.SoundPlayer '${f.replace(/'/g, "''")}').PlaySync()`,
        ],
      },
    ]
  return [
    { command: 'paplay', args: (f) => [f] },
    { command: 'aplay', args: (f) => ['-q', f] },
    { command: 'play', args: (f) => ['-q', f] },
    { command: 'ffplay', args: (f) => ['-nodisp', '-autoexit', '-loglevel', 'quiet', f] },
  ]
}

function runPlayer(
  player: PlayerCommand,
  file: string,
  signal: AbortSignal,
): Promise<'ok' | 'missing' | 'failed'> {
  return new Promise((resolve) => {
    const child = spawn(player.command, player.args(file), { stdio: 'ignore', windowsHide: true, signal })
    child.on('error', (error) => {
      resolve(
        (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : signal.aborted ? 'ok' : 'failed',
      )
    })
    child.on('close', (code) => resolve(code === 0 || signal.aborted ? 'ok' : 'failed'))
  })
}

/**
 * Plays WAV audio through the first system player that exists (paplay, aplay, sox play, ffplay;
 * afplay on macOS; PowerShell's SoundPlayer on Windows). Aborting the signal stops it at once.
 */
export function createSystemPlayer(platform: NodeJS.Platform = process.platform) {
  let chosen: PlayerCommand | undefined
  let dir: Promise<string> | undefined
  let n = 0
  return {
    async play(audio: Uint8Array, signal: AbortSignal): Promise<void> {
      dir ??= mkdtemp(join(tmpdir(), 'bureau-say-'))
      const file = join(await dir, `sentence-${n++}.wav`)
      await writeFile(file, audio)
      try {
        const failed: string[] = []
        for (const player of chosen ? [chosen] : players(platform)) {
          const outcome = await runPlayer(player, file, signal)
          if (outcome === 'missing') continue
          if (outcome === 'failed') {
            failed.push(player.command)
            continue
          }
          chosen = player
          return
        }
        throw new AppError(
          'UNAVAILABLE',
          failed.length > 0
            ? `${failed.join(', ')} could not play the audio (no sound device?). Write a file instead with --out FILE.wav.`
            : 'No audio player found (paplay, aplay, play or ffplay). Install one, or write a file with --out FILE.wav.',
        )
      } finally {
        await rm(file, { force: true })
      }
    },
    async dispose(): Promise<void> {
      if (dir) await rm(await dir, { recursive: true, force: true })
    },
  }
}
