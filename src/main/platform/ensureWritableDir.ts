import { constants } from 'node:fs'
import { access, mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { AppError } from '../../shared/errors'

/**
 * Creates the folder if missing and proves it is writable by writing a probe file.
 * The message names the folder on purpose: this is for the person starting the app, not for the agent.
 */
export async function ensureWritableDir(dir: string, what: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true })
    await access(dir, constants.W_OK)
    const probe = join(dir, `.bureau-write-probe-${process.pid}`)
    await writeFile(probe, '')
    await rm(probe, { force: true })
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? 'unknown error'
    throw new AppError(
      'UNAVAILABLE',
      `The ${what} ${dir} is not writable (${reason}). Choose another with --${what === 'data folder' ? 'data-dir' : 'workspace'} or fix its permissions.`,
      { cause: error },
    )
  }
}
